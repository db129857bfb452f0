// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/sched_cpu.c - running the CPUs' queues of vCPUs (hv/sched): the
 * loop of one CPU (pick, switch, a turn in vcpu_run(), put back), vCPU
 * start and placement, the guests' run on the boot CPU, and the
 * scheduler's part of the waits in place, of the tick and of a PAUSE exit.
 * docs/SCHED.md. */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/park/park.h"
#include "hv/sched/sched.h"
#include "hv/smp/ipi.h"
#include "hv/svm/sched_cpu.h"
#include "hv/svm/svm.h"
#include "hv/svm/vcpu_watchdog.h"
#include "hv/svm/vlapic_vcpu.h"
#include "include/minhv/guest_layout.h"

#define REAP_MAX 16 /* vCPUs dropped per look at a queue (more: next look) */
/* PAUSE exits in a row before a directed yield with no target takes any
 * sibling (sched_yield_choose()): without a PauseFilter (QEMU TCG) every
 * PAUSE exits, and a spin that waits for a running vCPU ends within a
 * few; with one, each exit is already count PAUSEs. */
#define SCHED_SIBLING_STREAK 8
/* How long to wait for an AP's idle loop to take its loop as posted work
 * (it runs one item at a time). */
#define POST_TRIES 1000000

static struct vcpu *vcpu_of(struct sched_entity *se)
{
	return (struct vcpu *)((char *)se -
			       __builtin_offsetof(struct vcpu, se));
}

static bool se_dead(const struct sched_entity *se)
{
	const struct guest *g = se->owner;

	return __atomic_load_n(&g->stopping, __ATOMIC_ACQUIRE);
}

/* se left every queue for good: its guest may be torn down once its count
 * of vCPUs on CPUs is 0, so nothing of it is touched after this. */
static void release(struct sched_entity *se)
{
	__atomic_sub_fetch(&vcpu_of(se)->guest->active, 1, __ATOMIC_ACQ_REL);
}

static void release_all(struct sched_entity **dead, u32 n)
{
	for (u32 i = 0; i < n; i++)
		release(dead[i]);
}

static bool all_stopping(struct guest *const *gs, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (!__atomic_load_n(&gs[i]->stopping, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* What the switch to v needs (runq_switch()): its guest's TLB entries
 * flushed at VMRUN (TLB_CONTROL, APM 15.16.1). The IBPB between guests
 * (RUNQ_SW_IBPB, counted in the queue's statistics) is vcpu_run()'s
 * spec_ctrl_guest_load(): it compares the guest serial per CPU, whoever
 * switched. */
static void switch_to(struct vcpu *v, unsigned f)
{
	if (f & RUNQ_SW_FLUSH)
		v->vmcb->control.tlb_control =
			vmcb_first_tlb_control(&g_features);
}

/* One turn of v, then back on the queue (or off it) as it left. */
static void run_turn(struct runq *rq, struct vcpu *v, unsigned f)
{
	struct sched_entity *se = &v->se;
	enum sched_why why;

	switch_to(v, f);
	why = vcpu_run(v);
	spin_lock(&rq->lock);
	/* An event since its wait's last look (v->wake is set before the
	 * waker takes this lock): run again instead of sleeping. */
	if (why == SCHED_BLOCK && __atomic_load_n(&v->wake, __ATOMIC_SEQ_CST))
		why = se->why = SCHED_PREEMPT;
	se->in_kernel = v->vmcb->save.cpl == 0;
	runq_put_prev(rq, se, rdtsc());
	spin_unlock(&rq->lock);
	if (why == SCHED_EXIT)
		release(se);
}

/* Nothing to run: take a queued vCPU from a busy CPU, or wait (parked)
 * for a wake-up, a sleeper's timer or a guest stopping. */
static void idle(struct runq *rq)
{
	struct sched_entity *se = sched_steal(rq->cpu);
	u64 at;

	if (se) {
		spin_lock(&rq->lock);
		runq_add(rq, se, rdtsc());
		rq->st.steals++;
		spin_unlock(&rq->lock);
		return;
	}
	rq->st.idle++;
	at = __atomic_load_n(&rq->next_wake, __ATOMIC_ACQUIRE);
	if (at)
		cpu_timer_arm_at(at, rdtsc());
	if (park_ready())
		park_until(PARK_IDLE, &rq->kick);
	else
		cpu_relax();
}

/* Run rq's queue on this CPU. An AP's loop ends when nothing is left on
 * it; the boot CPU's (gs, n: the guests it runs) once they all stop and
 * none of their vCPUs is left here. */
static void cpu_loop(struct runq *rq, struct guest *const *gs, u32 n)
{
	struct svm_cpu *sc = svm_this_cpu();

	if (sc)
		sc->rq = rq;
	for (;;) {
		struct sched_entity *dead[REAP_MAX], *se;
		unsigned f = 0;
		bool end = false;
		u32 nd;
		u64 now;

		__atomic_store_n(&rq->kick, 0, __ATOMIC_SEQ_CST);
		spin_lock(&rq->lock);
		now = rdtsc();
		nd = runq_reap(rq, se_dead, dead, REAP_MAX);
		runq_wake_due(rq, now);
		se = runq_pick(rq, now);
		if (se)
			f = runq_switch(rq, se);
		else if (runq_empty(rq) && (!n || all_stopping(gs, n)))
			end = true;
		if (end)
			rq->loop = false; /* sched_add() starts it again */
		spin_unlock(&rq->lock);
		release_all(dead, nd);
		if (end)
			return;
		if (se)
			run_turn(rq, vcpu_of(se), f);
		else
			idle(rq);
	}
}

static void cpu_thread(void *arg)
{
	cpu_loop(arg, NULL, 0);
}

/* An AP's loop, as work posted to its idle loop (thread context), or by
 * cross-call before parking is armed. */
static int start_loop(u32 cpu)
{
	struct runq *rq = sched_rq(cpu);

	if (!park_ready())
		return ipi_call_on(cpu, cpu_thread, rq, false);
	for (u32 i = 0; i < POST_TRIES; i++) {
		int r = park_post(cpu, cpu_thread, rq);

		if (r != -EBUSY)
			return r;
		cpu_relax(); /* its idle loop runs another item first */
	}
	return -EBUSY;
}

/* from -> RUNNING: IDLE for vCPU 0, STARTING for a claimed vCPU. */
static int mark_running(struct vcpu *v, u32 from)
{
	struct guest *g = v->guest;
	int r = 0;

	spin_lock(&g->lock);
	if (v->state != from || g->stopping) {
		r = -EBUSY;
	} else {
		v->state = VCPU_RUNNING;
		g->live++;
		/* Counted from now, not from when its CPU gets to it, so a
		 * guest that ends first cannot be freed under the vCPU. */
		__atomic_add_fetch(&g->active, 1, __ATOMIC_ACQ_REL);
	}
	spin_unlock(&g->lock);
	return r;
}

static void unmark(struct vcpu *v)
{
	struct guest *g = v->guest;

	spin_lock(&g->lock);
	v->state = VCPU_IDLE;
	g->live--;
	__atomic_sub_fetch(&g->active, 1, __ATOMIC_ACQ_REL);
	spin_unlock(&g->lock);
}

/* v (RUNNING, counted) onto its CPU's queue, that CPU's loop started. */
static int place(struct vcpu *v)
{
	u32 cpu = vcpu_home_cpu(v);
	bool start;
	int r = sched_add(&v->se, cpu, rdtsc(), &start);

	if (r)
		return r;
	if (start && start_loop(cpu)) {
		/* Nobody will run that queue: take v back off it. */
		struct runq *rq = sched_lock(&v->se);

		if (v->se.state == SE_QUEUED) {
			runq_detach(rq, &v->se);
			v->se.state = SE_NONE;
			rq->loop = false;
			sched_unlock(rq);
			return -ENOENT;
		}
		sched_unlock(rq); /* someone else's loop took it */
	}
	return 0;
}

int vcpu_launch(struct vcpu *v)
{
	int r = mark_running(v, VCPU_STARTING);

	if (r) {
		if (v->state == VCPU_STARTING)
			v->state = VCPU_IDLE; /* give the claim back */
		return r;
	}
	r = place(v);
	if (r)
		unmark(v);
	return r;
}

void vcpu_run_here(struct vcpu *v)
{
	struct runq *rq = sched_rq(ipi_this_cpu());
	bool start;

	if (!rq || mark_running(v, VCPU_IDLE))
		return;
	spin_lock(&rq->lock);
	rq->loop = true; /* this CPU runs it: no loop to start */
	spin_unlock(&rq->lock);
	if (sched_add(&v->se, rq->cpu, rdtsc(), &start)) {
		unmark(v);
		return;
	}
	cpu_loop(rq, NULL, 0); /* until nothing is left on this queue */
}

void guests_run(struct guest *const *gs, u32 n)
{
	struct runq *rq = sched_rq(ipi_this_cpu());

	if (!rq) {
		for (u32 i = 0; i < n; i++)
			guest_stop(gs[i], -1, true,
				   "no run queues (sched_init failed)");
		return;
	}
	spin_lock(&rq->lock);
	rq->loop = true; /* this CPU takes vCPUs from now on */
	spin_unlock(&rq->lock);
	for (u32 i = 0; i < n; i++) {
		struct vcpu *v0 = gs[i]->vcpus[0];

		if (mark_running(v0, VCPU_IDLE) == 0 && place(v0)) {
			unmark(v0);
			guest_stop(gs[i], -1, true, "vCPU 0 cannot be placed");
		}
		/* A foreign guest's APs wait for INIT-SIPI on their CPUs. */
		vlapic_guest_start(gs[i]);
	}
	cpu_loop(rq, gs, n);
	for (u32 i = 0; i < n; i++)
		guest_wait_idle(gs[i]);
}

void vcpu_pause_follow(struct vcpu *v)
{
	struct guest *g = v->guest;
	bool want;

	if (!g->pause.follow)
		return;
	/* Not for a vCPU queued on another CPU (a directed yield could pull
	 * it here): such exits rarely found a target, each pull moved one
	 * for good, and on Linux this rule took 7 % off directed's time
	 * (docs/PERFORMANCE.md "vCPUs sharing CPUs"). */
	want = sched_queued(v->se.cpu);
	if (want == vmcb_has_intercept(v->vmcb, INTERCEPT_PAUSE))
		return;
	if (want)
		vmcb_set_intercept(v->vmcb, INTERCEPT_PAUSE);
	else
		vmcb_clr_intercept(v->vmcb, INTERCEPT_PAUSE);
	v->stats.pause_flips++;
}

void vcpu_sched_enter(struct vcpu *v)
{
	struct guest *g = v->guest;
	struct vmcb_control *c = &v->vmcb->control;

	v->lapic.c.host_at = 0; /* this CPU's timer holds nothing of it */
	vcpu_pause_follow(v);
	if (g->window_dynamic && g->pause.mode == HV_PAUSE_FILTER &&
	    c->pause_filter_count != g->pause.count) {
		vmcb_set_pause_filter_count(
			v->vmcb, pause_window_shrink(c->pause_filter_count,
						     g->pause.count));
	}
}

bool vcpu_sched_should_block(struct vcpu *v, u64 wake_at)
{
	struct runq *rq = sched_rq(v->se.cpu);
	bool others;
	u64 now, next;

	if (!rq || !runq_shared(rq))
		return false;
	spin_lock(&rq->lock);
	now = rdtsc();
	runq_wake_due(rq, now);
	others = rq->queue.n != 0;
	next = rq->next_wake;
	spin_unlock(&rq->lock);
	if (others) {
		v->se.wake_at = wake_at;
		v->se.why = SCHED_BLOCK;
		return true;
	}
	if (next && (!wake_at || next < wake_at)) {
		cpu_timer_arm_at(next, now); /* a sleeper's timer ends it */
		/* The one timer no longer holds what the vLAPIC armed: the
		 * wait's vlapic_host_timer_arm() must arm it again, never
		 * later than the scheduler's deadline. */
		v->lapic.c.host_at = 0;
	}
	return false;
}

bool vcpu_sched_tick(struct vcpu *v, u64 now)
{
	struct runq *rq = sched_rq(v->se.cpu);
	struct sched_entity *dead[REAP_MAX];
	bool leave;
	u32 nd;

	spin_lock(&rq->lock);
	nd = runq_reap(rq, se_dead, dead, REAP_MAX);
	runq_wake_due(rq, now);
	leave = runq_should_preempt(rq, now);
	spin_unlock(&rq->lock);
	release_all(dead, nd);
	if (leave)
		v->se.why = SCHED_PREEMPT;
	return leave;
}

u64 vcpu_sched_deadline(const struct vcpu *v)
{
	const struct runq *rq = sched_rq(v->se.cpu);

	return rq && runq_shared(rq) ? runq_deadline(rq) : 0;
}

bool vcpu_pause_yield(struct vcpu *v)
{
	struct guest *g = v->guest;
	struct vmcb_control *c = &v->vmcb->control;
	struct sched_entity *t;
	unsigned how, flags = 0;

	if (g->window_dynamic && g->pause.mode == HV_PAUSE_FILTER) {
		u16 w = pause_window_grow(c->pause_filter_count,
					  g->pause.count);

		if (w != c->pause_filter_count)
			vmcb_set_pause_filter_count(v->vmcb, w);
	}
	if (g->yield == YIELD_NONE)
		return false;
	v->se.in_kernel = v->vmcb->save.cpl == 0;
	/* PAUSE exits with no other exit between: how long it has spun. */
	v->pause_streak =
		v->pause_last + 1 == v->stats.exits ? v->pause_streak + 1 : 1;
	v->pause_last = v->stats.exits;
	if (g->nr_vcpus > g->ncpus)
		flags |= SCHED_YC_PULL;
	if (v->pause_streak >= SCHED_SIBLING_STREAK)
		flags |= SCHED_YC_SIBLING;
	t = sched_yield_choose(&v->se, g->yield, flags, &how);
	if (!t) {
		v->stats.pause_no_target++;
		return false;
	}
	v->stats.pause_sibling += how == SCHED_YT_SIBLING;
	runq_set_yield(&v->se, t, g->yield, how == SCHED_YT_PULLED);
	v->stats.pause_yields++;
	return true;
}
