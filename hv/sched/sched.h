/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/sched/sched.h - the run queues of all CPUs (hv/sched/runq.h is one of
 * them and its decisions): finding and locking the queue that holds a
 * vCPU, waking a blocked vCPU and telling its CPU, placing new ones, and
 * the idle CPUs that take queued vCPUs from busy ones. The loop that runs a
 * queue is the run loop's (hv/svm/sched_cpu.c). docs/SCHED.md. */
#ifndef MINHV_HV_SCHED_SCHED_H
#define MINHV_HV_SCHED_SCHED_H

#include "arch/types.h"
#include "hv/sched/runq.h"

/* Boot CPU, once SMP is up (before any guest): one queue per CPU, from the
 * page pool. 0 or -ENOMEM. */
int sched_init(void);
/* CPU cpu's queue (cpu < the CPUs sched_init() saw), or NULL. */
struct runq *sched_rq(u32 cpu);

/* Lock the queue that holds se and return it, following a move; se's
 * state is then stable until sched_unlock(). */
struct runq *sched_lock(struct sched_entity *se);
static inline void sched_unlock(struct runq *rq)
{
	spin_unlock(&rq->lock);
}

/* Implemented above (hv/guest/vcpu_kick.c), called with rq->lock held:
 * make se, its CPU's running vCPU, look at the queue soon (stop waiting in
 * place, or exit guest mode and take its next exit's slow path, which arms
 * the slice timer). */
void sched_kick_running(struct sched_entity *se);

/* Wake the CPU that runs rq's loop from its idle wait (hv/park). */
void sched_kick_cpu(struct runq *rq);

/* se (SE_NONE) becomes runnable on cpu at TSC now. *start is set when
 * that CPU's loop is not running and the caller must start it there
 * (hv/park's posted work). 0, or -EBUSY when the CPU cannot take vCPUs
 * now (the boot CPU outside its loop). */
int sched_add(struct sched_entity *se, u32 cpu, u64 now, bool *start);

/* An event for se (an interrupt, HC_VCPU_ONLINE, the guest stopping):
 * a blocked se becomes runnable and its CPU is told when it must act
 * (idle, or the first one queued behind a running vCPU), and an idle CPU
 * that may take it is woken when its own CPU is busy. Returns the state
 * se was in, and in *cpu the CPU holding it (for SE_RUNNING the caller
 * makes it exit guest mode). */
enum se_state sched_wake(struct sched_entity *se, u64 now, u32 *cpu);

/* An idle CPU among se's allowed ones (its loop waits with nothing to run),
 * other than busy: woken so it takes se (or another queued vCPU) from a
 * busy queue. */
void sched_kick_idle_for(const struct sched_entity *se, u32 busy);

/* For cpu's idle loop: take the queued vCPU that waited longest on the
 * busiest other queue, if it may run on cpu. SE_MOVING; NULL if none. */
struct sched_entity *sched_steal(u32 cpu);

/* For a PAUSE exit of me on cpu: a directed target queued on another of
 * me's CPUs, taken off that queue (SE_MOVING), or NULL. */
struct sched_entity *sched_pull_directed(const struct sched_entity *me,
					 u32 cpu);

/* The target of a PAUSE exit of me (running on its CPU, me->in_kernel
 * up to date) under policy p, or NULL: step over the PAUSE. ANY: the head
 * of this CPU's queue. DIRECTED, as KVM's kvm_vcpu_on_spin() chooses
 * (runq_yield_target()) from this CPU's queue, then, with SCHED_YC_PULL
 * (its guest has more vCPUs than CPUs), from the queues of me's other
 * CPUs (taken off there: *how = SCHED_YT_PULLED, ours to queue), and when
 * none has one, with SCHED_YC_SIBLING (me has spun a while: a short wait
 * for a running vCPU is not worth a turn), any sibling queued here
 * (SCHED_YT_SIBLING, runq_yield_sibling()). */
#define SCHED_YC_PULL 1u
#define SCHED_YC_SIBLING 2u
#define SCHED_YT_HERE 0u
#define SCHED_YT_PULLED 1u
#define SCHED_YT_SIBLING 2u
struct sched_entity *sched_yield_choose(struct sched_entity *me,
					enum sched_yield p, unsigned flags,
					unsigned *how);

/* Whether a vCPU is queued on cpu: someone waits for that CPU, whom a
 * PAUSE exit there could give it to. Lock-free (a hint, read at a turn's
 * start and on the tick). */
bool sched_queued(u32 cpu);

#endif
