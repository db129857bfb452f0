/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/vcpu_watchdog.h - the per-vCPU tick used by the run loop
 * (hv/svm/vcpu_run.c): the no-progress watchdog (watchdog_ms=0 turns it
 * off), the guest's run-time limit and its console budget refill. */
#ifndef MINHV_HV_SVM_VCPU_WATCHDOG_H
#define MINHV_HV_SVM_VCPU_WATCHDOG_H

#include "hv/park/park.h"
#include "hv/vcpu/vcpu.h"
#include "hv/vmcb/vmcb.h"

/* Boot CPU, once, after TSC calibration. */
void vcpu_watchdog_init(u32 ms);
/* On the vCPU's CPU: start ticking, progress = now (when any limit is on;
 * also after a wait in the host: parked time is not a hang), less what it
 * ran without progress before it was last preempted (v->wd_carry). Also
 * when the CPU is shared (the scheduler's deadline). */
void vcpu_watchdog_arm(struct vcpu *v);
/* The vCPU leaves its CPU (v->se.why said why): the timer stops; a
 * preempted one keeps what it ran without progress in v->wd_carry. */
void vcpu_watchdog_leave(struct vcpu *v);
/* The slow path, once per tick: false when the guest was stopped, or when
 * the vCPU's turn on a shared CPU is over (v->se.why = SCHED_PREEMPT). */
bool vcpu_watchdog_tick(struct vcpu *v);
/* This CPU's LAPIC timer to fire at host TSC at (now: the TSC now), in
 * counts of its calibrated clock (hv/smp/apic_cal.h). */
void cpu_timer_arm_at(u64 at, u64 now);

/* One turn of a wait in the host (HLT, wait-for-SIPI, ACPI S3, a halted
 * or offline vCPU), after the caller cleared v->wake and found nothing to
 * wake for: the host timer armed for the nearest of until (host TSC, 0:
 * none), the guest's vLAPIC timer and, when a limit is on, the next tick;
 * the CPU parked (why) until v->wake or that timer; then the run loop's
 * checks: the console budget and the run-time limit (the stop reason says
 * "in <what>"); time spent waiting is not a hang. false when the
 * guest is stopping. */
bool vcpu_wait_turn(struct vcpu *v, enum park_reason why, const char *what,
		    u64 until);

/* After each exit, once exit_dispatch_fast() counted it: one load and a branch,
 * no TSC read. The tick handler sets v->tick whether the timer fired in
 * guest mode (an INTR exit) or while the host handled another exit. */
static inline bool vcpu_watchdog_check(struct vcpu *v)
{
	if (__builtin_expect(!__atomic_load_n(&v->tick, __ATOMIC_RELAXED), 1))
		return true;
	return vcpu_watchdog_tick(v);
}

#endif
