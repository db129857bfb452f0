/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/sched_cpu.h - vCPUs on the CPUs' run queues (hv/sched), the run
 * loop's side: one turn of a vCPU (vcpu_run.c), and what the loop, the
 * waits in place, the tick and a PAUSE exit ask of the scheduler
 * (sched_cpu.c). docs/SCHED.md. */
#ifndef MINHV_HV_SVM_SCHED_CPU_H
#define MINHV_HV_SVM_SCHED_CPU_H

#include "hv/sched/runq.h"
#include "hv/vcpu/vcpu.h"

/* vcpu_run.c: run v on this CPU (its queue picked it) until it leaves;
 * why it left (also in v->se.why). */
enum sched_why vcpu_run(struct vcpu *v);

/* At the start of v's turn: the host timer holds nothing of it here, and
 * pause_window=dynamic goes back to the base count (KVM's shrink when a
 * vCPU is scheduled in). */
void vcpu_sched_enter(struct vcpu *v);
/* In a wait in place (HLT, offline, wait-for-SIPI), after the waiter
 * cleared v->wake and found nothing to wake it: true when another vCPU is
 * queued on this CPU, and v leaves it (SCHED_BLOCK) to be woken by an
 * event or at wake_at (host TSC, 0: none). Otherwise the host timer is set
 * for a sleeping sibling's timer when it comes before wake_at. One load
 * when the CPU is not shared. */
bool vcpu_sched_should_block(struct vcpu *v, u64 wake_at);
/* The tick's slow path on a shared CPU (vcpu_watchdog_tick()): sleepers
 * whose time came are queued, a stopping guest's vCPUs dropped; true when
 * v's turn is over and another vCPU waits (v->se.why = SCHED_PREEMPT). */
bool vcpu_sched_tick(struct vcpu *v, u64 now);
/* The host TSC the CPU's timer must fire by for the scheduler (end of the
 * turn with others queued, a sleeper's timer), 0: none. Lock-free. */
u64 vcpu_sched_deadline(const struct vcpu *v);
/* pause_intercept=auto on shared CPUs (g->pause.follow): PAUSE is
 * intercepted only while another vCPU is queued on this CPU, whatever
 * pause_yield= says (nobody waits for this CPU: an exit would be pure
 * cost; docs/SCHED.md "PAUSE"). At a turn's start and on the tick; one
 * load otherwise. */
void vcpu_pause_follow(struct vcpu *v);
/* A PAUSE exit (RIP already past it): pause_window=dynamic grows the
 * filter count; pause_yield= picks whom to give the CPU to. true when v
 * leaves (v->se.why = SCHED_YIELD). */
bool vcpu_pause_yield(struct vcpu *v);

#endif
