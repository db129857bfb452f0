/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/x86.h - the x86 instructions the test guest uses, as inline asm,
 * and the few architectural constants it needs: the guest is its own tiny
 * kernel and a separate image, sharing only lib/ and include/minhv/ with
 * the hypervisor, so these are its own copies of arch/'s. */
#ifndef MINHV_GUEST_X86_H
#define MINHV_GUEST_X86_H

#include "lib/types.h"

/* MSRs and EFER bits (APM vol 2, appendix A). */
#define MSR_EFER 0xc0000080
#define EFER_LME BIT(8)
#define EFER_LMA BIT(10)
#define EFER_SVME BIT(12)
#define MSR_KERNEL_GS_BASE 0xc0000102
#define MSR_TSC_AUX 0xc0000103
#define MSR_VM_HSAVE_PA 0xc0010117

/* Long-mode page-table entry bits (APM vol 2, 5.3.3). */
#define PTE_P BIT(0) /* present */
#define PTE_RW BIT(1) /* writable */
#define PTE_ADDR_MASK 0x000ffffffffff000ULL /* bits 51:12 */

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(u32 leaf, u32 subleaf)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return lo | (u64)hi << 32;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" ::"c"(msr), "a"((u32)v), "d"((u32)(v >> 32))
			 : "memory");
}

static inline void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(u16 port, u32 v)
{
	__asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port));
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (u64)hi << 32;
}

static inline u64 read_cr0(void)
{
	u64 v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr3(void)
{
	u64 v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr4(void)
{
	u64 v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void halt(void)
{
	__asm__ volatile("hlt" ::: "memory");
}

#endif
