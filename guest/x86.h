/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/x86.h - the x86 instructions the test guest uses, as inline asm
 * (the guest links no arch/ code: it is its own tiny kernel). */
#ifndef MINHV_GUEST_X86_H
#define MINHV_GUEST_X86_H

#include "arch/types.h"

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
