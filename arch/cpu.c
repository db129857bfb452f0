// SPDX-License-Identifier: GPL-2.0-only
/* arch/cpu.c - the real x86 instruction primitives behind arch/cpu.h.
 * Out-of-line on purpose: host unit tests swap this file for a double. */
#include "arch/cpu.h"

void cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx),
			   "=d"(r->edx)
			 : "a"(leaf), "c"(subleaf));
}

u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

void wrmsr(u32 msr, u64 val)
{
	__asm__ volatile("wrmsr"
			 :
			 : "c"(msr), "a"((u32)val), "d"((u32)(val >> 32))
			 : "memory");
}

#define CR_RW(n)                                                  \
	u64 read_cr##n(void)                                      \
	{                                                         \
		u64 v;                                            \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v)); \
		return v;                                         \
	}
CR_RW(0)
CR_RW(2)
CR_RW(3)
CR_RW(4)

void write_cr0(u64 v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

void write_cr3(u64 v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

void write_cr4(u64 v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

u64 read_rflags(void)
{
	u64 v;

	__asm__ volatile("pushfq; pop %0" : "=r"(v));
	return v;
}

void *read_gs_self(void)
{
	void *p;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

void wbinvd(void)
{
	__asm__ volatile("wbinvd" ::: "memory");
}

void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

void irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

void irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

void cpu_monitor(const volatile void *addr)
{
	/* MONITOR: RAX = address, ECX = extensions, EDX = hints. */
	__asm__ volatile("monitor" : : "a"(addr), "c"(0), "d"(0) : "memory");
}

u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

void mfence(void)
{
	__asm__ volatile("mfence" ::: "memory");
}

void lfence(void)
{
	__asm__ volatile("lfence" ::: "memory");
}

void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

void outw(u16 port, u16 v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

void outl(u16 port, u32 v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

u16 inw(u16 port)
{
	u16 v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

u32 inl(u16 port)
{
	u32 v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

u32 mmio_read32(hpa_t a)
{
	return *(volatile u32 *)hpa_to_ptr(a);
}

void mmio_write32(hpa_t a, u32 v)
{
	*(volatile u32 *)hpa_to_ptr(a) = v;
}

_Noreturn void cpu_dead(void)
{
	for (;;)
		__asm__ volatile("cli; hlt" ::: "memory");
}

u64 xgetbv(u32 xcr)
{
	u32 lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
	return ((u64)hi << 32) | lo;
}

void xsetbv(u32 xcr, u64 val)
{
	__asm__ volatile("xsetbv"
			 :
			 : "c"(xcr), "a"((u32)val), "d"((u32)(val >> 32))
			 : "memory");
}

void xsave(void *area, u64 mask)
{
	__asm__ volatile("xsave64 (%0)"
			 :
			 : "r"(area), "a"((u32)mask), "d"((u32)(mask >> 32))
			 : "memory");
}

void xrstor(const void *area, u64 mask)
{
	__asm__ volatile("xrstor64 (%0)"
			 :
			 : "r"(area), "a"((u32)mask), "d"((u32)(mask >> 32))
			 : "memory");
}

void fxsave(void *area)
{
	__asm__ volatile("fxsave64 (%0)" : : "r"(area) : "memory");
}

void fxrstor(const void *area)
{
	__asm__ volatile("fxrstor64 (%0)" : : "r"(area) : "memory");
}

#define DR_CASE(n)                                                \
	case n:                                                   \
		__asm__ volatile("mov %%dr" #n ", %0" : "=r"(v)); \
		break
u64 read_dr(unsigned n)
{
	u64 v = 0;

	switch (n) {
		DR_CASE(0);
		DR_CASE(1);
		DR_CASE(2);
		DR_CASE(3);
		DR_CASE(6);
		DR_CASE(7);
	}
	return v;
}
#undef DR_CASE

#define DR_CASE(n)                                                         \
	case n:                                                            \
		__asm__ volatile("mov %0, %%dr" #n : : "r"(v) : "memory"); \
		break
void write_dr(unsigned n, u64 v)
{
	switch (n) {
		DR_CASE(0);
		DR_CASE(1);
		DR_CASE(2);
		DR_CASE(3);
		DR_CASE(6);
		DR_CASE(7);
	}
}
#undef DR_CASE
