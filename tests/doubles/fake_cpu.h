/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/fake_cpu.h - a test double for arch/cpu.h: per-CPU fake MSRs,
 * CPUID leaves, control registers and counters, plus an event trace so tests
 * can assert the exact order of privileged operations. */
#ifndef MINHV_TESTS_DOUBLES_FAKE_CPU_H
#define MINHV_TESTS_DOUBLES_FAKE_CPU_H

#include "arch/cpu.h"

#define FAKE_NCPUS 16
#define FAKE_NMSRS 256

struct fake_msr {
	u32 msr;
	u64 val;
	bool exists;
	bool drop_writes; /* wrmsr is traced but not stored */
};

struct fake_cpu_state {
	struct fake_msr msrs[FAKE_NMSRS];
	unsigned nmsrs;
	u64 cr0, cr2, cr3, cr4, rflags;
	unsigned wbinvd_count, halt_count, mfence_count, lfence_count;
	unsigned wrmsr_count;
	bool irq_enabled;
	u64 xcr0; /* xsetbv/xgetbv */
	u64 dr[8]; /* read_dr/write_dr */
	/* Stands for the vector registers: xsave stores it at the XMM0 slot
	 * (offset 160) of the area, xrstor loads it back, or zeroes it where
	 * XSTATE_BV (offset 512) lacks SSE (the init state). */
	u8 vec[32];
};

extern struct fake_cpu_state fake_cpus[FAKE_NCPUS];
/* Which fake CPU the calling thread is (thread-local; default 0). */
void fake_cpu_select(unsigned cpu);
unsigned fake_cpu_current(void);
void fake_cpu_reset(void);

/* CPUID table shared by all fake CPUs; unset leaves read as zeros. */
void fake_cpuid_set(u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx);
/* Convenience: set a vendor string in leaf 0 (max leaf 0x1f) and
 * 0x80000000 (max 0x80000025). */
void fake_cpuid_vendor(const char *vendor12);
/* OR bits into one register (0 eax .. 3 edx) of a leaf. */
void fake_cpuid_or(u32 leaf, u32 subleaf, int reg, u32 bits);

/* Make an MSR exist on every CPU with this value. rdmsr of an MSR that does
 * not exist fails the test (mirrors #GP). */
void fake_msr_define(u32 msr, u64 val);
u64 fake_msr_read(unsigned cpu, u32 msr);
bool fake_msr_exists(unsigned cpu, u32 msr);
/* Make one CPU silently ignore writes to an (existing) MSR, as a CPU
 * that drops a write would (TCG drops unknown MSRs the same way). */
void fake_msr_drop_writes(unsigned cpu, u32 msr, bool drop);

/* Event trace: every wrmsr, cr write, wbinvd, halt, irq on/off, out is
 * appended as a line ("wrmsr 0x48 0x0", "wbinvd", "cr0 0x...").
 * Per-thread CPU tagged as "cpuN: ". fake_trace() returns the whole log. */
const char *fake_trace(void);
void fake_trace_clear(void);
void fake_trace_enable(bool on);
/* Append a line of one's own (a double of another primitive, e.g. the RMP
 * instructions), tagged with the current fake CPU like the others. */
void fake_trace_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Count lines in the trace containing needle. */
unsigned fake_trace_count(const char *needle);
/* Position (line index) of the first line containing needle, or -1. */
int fake_trace_find(const char *needle);

/* Called by cpu_safe_halt()/cpu_safe_mwait() after they are traced, with
 * interrupts on: a test simulates what wakes the CPU (an interrupt, a store
 * to the monitored line). Reset to NULL by fake_cpu_reset(). */
extern void (*fake_halt_hook)(void);
/* Called at the start of every wrmsr(), before the write (not re-entered
 * for writes the hook makes): simulates an NMI that lands just before. */
extern void (*fake_wrmsr_hook)(u32 msr, u64 val);
/* Called once by the next irq_disable() that finds IF=1, before it clears
 * it, and then reset to NULL: an interrupt (a cross-CPU kick, say) that
 * lands in host mode just before the CLI. Reset by fake_cpu_reset(). */
extern void (*fake_cli_hook)(void);

/* TSC: each rdtsc() returns the previous value + step, or, while set,
 * what the hook says (a simulated clock). Reset to NULL by
 * fake_cpu_reset(). */
void fake_tsc_set(u64 start, u64 step);
extern u64 (*fake_rdtsc_hook)(void);
/* MMIO: while set, mmio_read32/mmio_write32 go to these (a device double)
 * instead of host memory; writes are traced either way. */
extern u32 (*fake_mmio_read_hook)(u64 addr);
extern void (*fake_mmio_write_hook)(u64 addr, u32 val);
/* Port I/O: inb/inw/inl return this value; outs are traced. While
 * fake_inb_hook is set, inb() asks it instead (a device double). Reset to
 * NULL by fake_cpu_reset(). */
void fake_io_set_in(u32 value);
extern u8 (*fake_inb_hook)(u16 port);

#endif
