/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/cpu.h - x86 instruction primitives used by hv/.
 * Real versions live in arch/cpu.c; host unit tests link test doubles
 * (tests/doubles/) instead, so every caller here must go through these. */
#ifndef MINHV_ARCH_CPU_H
#define MINHV_ARCH_CPU_H

#include "arch/types.h"

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

void cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *r);
u64 rdmsr(u32 msr);
void wrmsr(u32 msr, u64 val);
/* rdmsr that survives a #GP: returns false if the MSR does not exist. */
bool rdmsr_safe(u32 msr, u64 *val);

u64 read_cr0(void);
void write_cr0(u64 v);
u64 read_cr2(void);
u64 read_cr3(void);
void write_cr3(u64 v);
u64 read_cr4(void);
void write_cr4(u64 v);
u64 read_rflags(void);
/* The pointer stored at gs:0 (minhv keeps each CPU's percpu there). */
void *read_gs_self(void);

void wbinvd(void);
void cpu_relax(void); /* PAUSE */
void irq_enable(void); /* STI */
void irq_disable(void); /* CLI */
/* STI;HLT as one unit so a wake-up IPI cannot slip in between
 * (arch/cpu_safe.asm; an NMI or #MC between them: hv/trap.c). */
void cpu_safe_halt(void);
/* MONITOR: arm the monitor on the cache line holding addr (APM vol 3). */
void cpu_monitor(const volatile void *addr);
/* STI;MWAIT as one unit: wakes on a store to the monitored line or on an
 * interrupt (hint in EAX, no extensions). */
void cpu_safe_mwait(u32 hint);
u64 rdtsc(void);
void mfence(void);
void lfence(void);

/* Extended control registers (XCR0 = XFEATURE_ENABLED_MASK; SDM vol 1
 * 13.3). Need CR4.OSXSAVE. */
u64 xgetbv(u32 xcr);
void xsetbv(u32 xcr, u64 val);
/* XSAVE/XRSTOR (standard form, SDM vol 1 13.7/13.8) of the components in
 * mask & XCR0; area 64-byte aligned. FXSAVE/FXRSTOR: the 512-byte legacy
 * image, 16-byte aligned (where XSAVE is absent). */
void xsave(void *area, u64 mask);
void xrstor(const void *area, u64 mask);
void fxsave(void *area);
void fxrstor(const void *area);
/* Debug registers DR0-DR3, DR6, DR7 (n = the register number). */
u64 read_dr(unsigned n);
void write_dr(unsigned n, u64 v);

void outb(u16 port, u8 v);
void outw(u16 port, u16 v);
void outl(u16 port, u32 v);
u8 inb(u16 port);
u16 inw(u16 port);
u32 inl(u16 port);

u32 mmio_read32(hpa_t a);
void mmio_write32(hpa_t a, u32 v);

/* Stop this CPU for good: interrupts off, HLT forever. */
_Noreturn void cpu_dead(void);

#endif
