/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/sched/runq.h - a physical CPU's run queue of vCPUs and the decisions
 * taken on it: which vCPU runs next and for how long, when the one running
 * is preempted, who a PAUSE exit yields to (KVM's kvm_vcpu_on_spin()
 * choice), which sleeping vCPU a timer wakes. Pure: time comes in as a
 * TSC value, and the caller holds rq->lock around every call that takes a
 * struct runq * (hv/sched/sched.h, hv/svm/sched_cpu.c). docs/SCHED.md. */
#ifndef MINHV_HV_SCHED_RUNQ_H
#define MINHV_HV_SCHED_RUNQ_H

#include "arch/spinlock.h"
#include "arch/types.h"
#include "hv/sched/cpuset.h"

#define SCHED_NO_CPU 0xffffffffu

/* Where an entity is. Changes only under the lock of the run queue that
 * holds it (SE_MOVING: of neither; its mover owns it). */
enum se_state {
	SE_NONE, /* on no CPU: not started, or left for good */
	SE_QUEUED, /* runnable, in rq->queue, not running */
	SE_RUNNING, /* rq->curr: its CPU runs it (or waits for it in place) */
	SE_BLOCKED, /* in rq->sleepers: waits for an event or for wake_at */
	SE_MOVING, /* taken off one queue for another CPU (steal, pull) */
};

/* Why the running entity left its CPU (se->why, set before it leaves). */
enum sched_why {
	SCHED_EXIT, /* for good: the vCPU is done, or its guest stops */
	SCHED_PREEMPT, /* its slice ran out while others were queued */
	SCHED_YIELD, /* a PAUSE exit gave the CPU away (se->yield_to) */
	SCHED_BLOCK, /* waits for an event: HLT, offline, wait-for-SIPI */
};

/* pause_yield=: what a PAUSE exit does when other vCPUs are queued (the
 * values of HV_YIELD_*, include/minhv/guest_layout.h). */
enum sched_yield {
	YIELD_NONE, /* nothing: step over the PAUSE (minhv before issue 27) */
	YIELD_ANY, /* the next queued vCPU of any guest runs */
	YIELD_DIRECTED, /* a queued vCPU of the same guest, as KVM chooses */
};

/* How a guest's vCPUs share CPUs (the options slice_us=, pause_yield=,
 * pause_window=). */
struct sched_opts {
	u32 slice_us; /* a turn; 0: SCHED_SLICE_US_DEFAULT */
	enum sched_yield yield;
	bool window_dynamic; /* KVM's grow/shrink of the PAUSE filter count */
};
#define SCHED_SLICE_US_DEFAULT 5000

struct sched_stats {
	u64 picks; /* times it was given its CPU */
	u64 preempts, yields, blocks, wakes;
	u64 yielded_to; /* picked as a directed target */
	u64 migrations; /* picked on another CPU than the last one */
	u64 run_tsc; /* TSC it held a CPU */
	u64 wait_tsc; /* TSC it was runnable but queued */
};

/* One vCPU as the scheduler sees it (embedded in struct vcpu). */
struct sched_entity {
	struct sched_entity *prev, *next; /* in rq->queue or rq->sleepers */
	const void *owner; /* its guest: directed yields stay inside it */
	u64 owner_id; /* that guest's serial: never reused (IBPB, TLB) */
	const struct cpuset *allowed; /* the CPUs it may run on */
	u64 slice; /* TSC a turn lasts (slice_us=) */
	u32 id; /* the vCPU number (messages) */
	u32 cpu; /* the run queue that holds it */
	u32 last_cpu; /* the CPU it last ran on; SCHED_NO_CPU: none yet */
	u32 state; /* enum se_state */
	u32 why; /* enum sched_why: set by whoever makes it leave */
	bool spinning; /* left through a PAUSE yield: KVM's in_spin_loop */
	bool dy_eligible; /* KVM's alternation for a spinning target */
	bool in_kernel; /* was at CPL 0 when it left (KVM's preempted_in_kernel) */
	/* An event (an IPI, a timer, a wake-up) came for it since it last
	 * ran: it counts as in kernel mode, as KVM's dy_has_pending_interrupt
	 * makes it (a spinner may wait for it to take that IPI: a TLB
	 * shootdown's, a call function's). Cleared when it is picked. */
	bool kicked;
	struct sched_entity *yield_to; /* SCHED_YIELD: the target, if any */
	/* yield_to was taken off another CPU's queue (SE_MOVING) by this
	 * entity's PAUSE exit: it is ours to queue. A local target may be
	 * taken (SE_MOVING too) by an idle CPU meanwhile: that one is not. */
	bool yield_pulled;
	u64 wake_at; /* SE_BLOCKED: TSC a timer wakes it; 0: only an event */
	u64 since; /* TSC it was last queued or picked (statistics) */
	struct sched_stats st;
};

struct se_list {
	struct sched_entity *head, *tail;
	u32 n;
};

struct runq_stats {
	u64 switches; /* picks of an entity other than the last one here */
	u64 ibpb; /* switches between guests (IBPB) */
	u64 idle; /* waits with nothing to run */
	u64 steals; /* entities taken from another CPU's queue */
};

struct runq {
	spinlock_t lock;
	u32 cpu;
	struct sched_entity *curr; /* SE_RUNNING here, or NULL */
	struct sched_entity *next; /* a directed yield's target: runs first */
	struct se_list queue; /* SE_QUEUED, in FIFO order */
	struct se_list sleepers; /* SE_BLOCKED */
	/* Read without the lock as hints (a wrong one costs a spurious
	 * wake-up or a later re-check, never a lost one). */
	volatile u64 slice_end; /* TSC the current turn ends */
	volatile u64 next_wake; /* earliest sleeper's wake_at; 0: none */
	volatile u32 nr; /* entities here: queued + sleeping + curr */
	/* The last entity run here and its guest's serial (IBPB, TLB). */
	const struct sched_entity *last;
	u64 last_owner_id;
	volatile u32 kick; /* the idle wait's wake-up word (hv/park) */
	bool loop; /* its CPU runs the run-queue loop (or is about to) */
	struct runq_stats st;
};

void runq_init(struct runq *rq, u32 cpu);
/* Nothing here at all (the loop of an AP may end). */
static inline bool runq_empty(const struct runq *rq)
{
	return !rq->nr;
}
/* Others than the running one here (queued or asleep): the CPU is shared. */
static inline bool runq_shared(const struct runq *rq)
{
	return rq->queue.n || rq->sleepers.n;
}

/* A new entity (SE_NONE) becomes runnable here, at the tail. */
void runq_add(struct runq *rq, struct sched_entity *se, u64 now);
/* An SE_BLOCKED one is runnable again, at the tail. false when it was not
 * blocked here (running, queued, moving: it will look anyway). */
bool runq_wake(struct runq *rq, struct sched_entity *se, u64 now);
/* Sleepers whose wake_at has passed become runnable; how many. */
u32 runq_wake_due(struct runq *rq, u64 now);
/* Does a wake-up that just queued se need the CPU told? Yes when the CPU
 * idles (nothing running) or when se is the first one queued behind the
 * running one (which must arm its slice timer, or stop waiting in place). */
bool runq_wake_needs_kick(const struct runq *rq);

/* rq->curr left for se->why (PREEMPT, YIELD, BLOCK, EXIT) at now: queue
 * it, put it to sleep, or drop it (SE_NONE). A yield's target goes first:
 * rq->next, queued at the head if it was moved here (SE_MOVING). */
void runq_put_prev(struct runq *rq, struct sched_entity *se, u64 now);
/* The next entity to run (NULL: nothing queued), now rq->curr. A directed
 * target keeps what is left of the yielder's turn (the CPU's turn does not
 * grow by yielding), anyone else gets a full slice. */
struct sched_entity *runq_pick(struct runq *rq, u64 now);
/* What switching this CPU to se (just picked) needs: RUNQ_SW_FLUSH, the
 * guest's TLB entries for its ASID (vCPUs of a guest share one, and se may
 * have run elsewhere since); RUNQ_SW_IBPB, an indirect branch prediction
 * barrier (the CPU last ran another guest). Records se as the last. */
#define RUNQ_SW_FLUSH 1u
#define RUNQ_SW_IBPB 2u
unsigned runq_switch(struct runq *rq, const struct sched_entity *se);
/* The slice of the running one is over and someone is queued. */
static inline bool runq_should_preempt(const struct runq *rq, u64 now)
{
	return rq->curr && rq->queue.n && now >= rq->slice_end;
}
/* TSC the CPU's timer must fire by for the scheduler (end of the running
 * one's turn when others are queued, the earliest sleeper's wake_at), or 0.
 * Lock-free (hints). */
u64 runq_deadline(const struct runq *rq);

/* PAUSE exit of me (rq->curr) under policy p: the entity to hand the CPU
 * to from this queue, or NULL. ANY: the head of the queue. DIRECTED:
 * the first queued entity of me's guest that is eligible (a spinner only
 * every other time it is considered, KVM's dy_eligible), and preempted in
 * kernel mode, or kicked since, when me spins in kernel mode (KVM's
 * yield_to_kernel_mode, dy_has_pending_interrupt). */
struct sched_entity *runq_yield_target(struct runq *rq,
				       const struct sched_entity *me,
				       enum sched_yield p);
/* DIRECTED when no queue of me's CPUs has a target: the first queued
 * entity of me's guest here, whatever its mode or spinning, or NULL.
 * Someone of the guest waits for this CPU while me spins: its turn is
 * better spent on that one than on spinning it out. */
struct sched_entity *runq_yield_sibling(const struct runq *rq,
					const struct sched_entity *me);
/* me (rq->curr) leaves for SCHED_YIELD to t: from this queue
 * (runq_yield_target()), or pulled off another CPU's (sched_pull_directed(),
 * SE_MOVING, ours to queue here). A directed target runs next, in what is
 * left of the turn; for any, the next turn simply starts. */
static inline void runq_set_yield(struct sched_entity *me,
				  struct sched_entity *t, enum sched_yield p,
				  bool pulled)
{
	me->why = SCHED_YIELD;
	me->yield_to = p == YIELD_DIRECTED || pulled ? t : NULL;
	me->yield_pulled = pulled;
}
/* Take a queued entity off rq for another CPU (state SE_MOVING). */
void runq_detach(struct runq *rq, struct sched_entity *se);
/* For an idle CPU: the queued entity that waited longest and may run on
 * cpu, or NULL. Not detached. */
struct sched_entity *runq_steal_candidate(const struct runq *rq, u32 cpu);
/* Drop every queued or sleeping entity for which dead() says so (their
 * guest stops): SE_NONE, stored in out[] (at most max); how many. */
u32 runq_reap(struct runq *rq, bool (*dead)(const struct sched_entity *),
	      struct sched_entity **out, u32 max);

#endif
