/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/park/park.h - parking physical CPUs that have nothing to run. A parked CPU
 * waits with interrupts on (HLT, or MWAIT by option) and, under kernel-mode
 * IBRS, with IBRS and STIBP cleared so its SMT sibling runs at full speed
 * (Linux "x86/idle: Disable IBRS when CPU is offline"). docs/PARKING.md. */
#ifndef MINHV_HV_PARK_PARK_H
#define MINHV_HV_PARK_PARK_H

#include "arch/types.h"
#include "hv/smp/ipi.h"
#include "hv/trap.h" /* park_irq_enter() */

enum park_reason {
	PARK_RUNNING = 0, /* not parked */
	PARK_IDLE, /* no vCPU to run (at boot, or none assigned) */
	PARK_VCPU_OFFLINE, /* its vCPU was taken offline by the guest */
	PARK_VCPU_HALTED, /* its vCPU executed HLT with interrupts on */
};

struct park_stats {
	u64 parks; /* park_until() entries */
	u64 sleeps; /* HLT/MWAIT executed: park/wake cycles */
	u64 irqs; /* interrupts taken while parked (cross-calls, wake IPIs) */
	u64 spec_writes; /* SPEC_CTRL writes by parking (lower and restore) */
	u64 work; /* items posted with park_post() and run */
};

/* Boot CPU, after SMP bring-up and spec_ctrl_boot(), before any CPU parks.
 * use_mwait: g_options.park == PARK_MWAIT (used only when CPUID has
 * MONITOR). Returns 0, or -ENOMEM. */
int park_init(bool use_mwait);
/* True once park_init() ran: APs move from their bring-up wait loop into
 * park_cpu_loop() when they see it. */
bool park_ready(void);

/* Park the calling CPU until *ready is non-zero. Another CPU sets *ready,
 * then calls park_wake(). Interrupts are on while parked (cross-calls run,
 * then the CPU parks again); returns with SPEC_CTRL at the base value and
 * the interrupt flag as it was on entry. Call with GIF set. */
void park_until(enum park_reason why, const volatile u32 *ready);

/* The idle loop of a CPU with nothing to run: park, run posted work, park.
 * park_run_one() is one turn of it (unit tests). */
_Noreturn void park_cpu_loop(void);
void park_run_one(void);
/* Hand fn(arg) to cpu's idle loop and wake it. 0, -EBUSY when work is
 * already pending there, -EINVAL for an unknown CPU, or park_wake()'s
 * error. */
int park_post(u32 cpu, ipi_fn fn, void *arg);

/* Wake cpu so it re-checks its condition: a store to its monitored line,
 * plus a cross-call IPI when it waits in HLT. 1 when that IPI went out
 * (the CPU takes an interrupt: in guest mode an INTR exit), 0 when none
 * was needed (not parked, itself, or MWAIT), or negative. */
int park_wake(u32 cpu);

bool park_is_parked(u32 cpu);
/* CPUs with parking state: g_ncpus once park_init() ran, else 0. */
u32 park_ncpus(void);
/* Does cpu's SPEC_CTRL hold the park value (IBRS/STIBP cleared) now? */
bool park_spec_lowered(u32 cpu);
/* Wait (at most budget_tsc TSC ticks) until cpu is parked and has slept
 * more than `sleeps` times: it parked again after whatever woke it. */
bool park_wait_parked(u32 cpu, u64 sleeps, u64 budget_tsc);
enum park_reason park_reason_of(u32 cpu);
const char *park_reason_name(enum park_reason r);
void park_get_stats(u32 cpu, struct park_stats *s);
bool park_uses_mwait(void);
/* One console line per CPU: parked or running, why, counters. */
void park_print_summary(void);

#endif
