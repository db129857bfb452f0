// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_sched_set.c - the queue set's decisions (hv/sched/sched.c)
 * called directly on the simulated machine's vCPUs (sched_sim_fixture.h),
 * not run: the directed yield's choice, what a wake-up tells the CPUs, and
 * whether others are queued (the PAUSE intercept). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/sched/sched.h"
#include "tests/unit/sched_sim_fixture.h"

/* sched_yield_choose() for a kernel-mode spinner (v0, CPU 0) under
 * directed: a target on its own CPU first, then one pulled off another
 * CPU's queue, then any sibling queued here; another guest's vCPU never;
 * a user-mode sibling that was kicked since it ran is a target. */
static void test_yield_choose(void **s)
{
	struct runq *rq0, *rq1;
	struct sched_entity *me = &S.v[0].se, *t;
	unsigned how;

	(void)s;
	sim_init(2, 6, YIELD_DIRECTED, 100);
	S.v[2].se.owner = &guests[1]; /* another guest's, CPU 0 */
	sim_start(); /* CPU 0: v0 v2 v4; CPU 1: v1 v3 v5 */
	rq0 = sched_rq(0);
	rq1 = sched_rq(1);
	runq_pick(rq0, 0);
	runq_pick(rq1, 0);
	me->in_kernel = true;
	S.v[3].se.in_kernel = true; /* preempted in kernel mode, CPU 1 */
	assert_null(sched_yield_choose(me, YIELD_NONE,
				       SCHED_YC_PULL | SCHED_YC_SIBLING, &how));
	assert_ptr_equal(sched_yield_choose(me, YIELD_ANY,
					    SCHED_YC_PULL | SCHED_YC_SIBLING,
					    &how),
			 &S.v[2].se);
	/* No pulling (as many CPUs as vCPUs): v3 stays, v4 is the one. */
	t = sched_yield_choose(me, YIELD_DIRECTED, SCHED_YC_SIBLING, &how);
	assert_ptr_equal(t, &S.v[4].se);
	assert_int_equal(how, SCHED_YT_SIBLING);
	assert_int_equal(rq1->queue.n, 2);
	/* v4, user mode, not kicked: v3 is pulled from CPU 1. */
	t = sched_yield_choose(me, YIELD_DIRECTED,
			       SCHED_YC_PULL | SCHED_YC_SIBLING, &how);
	assert_ptr_equal(t, &S.v[3].se);
	assert_int_equal(how, SCHED_YT_PULLED);
	assert_int_equal(t->state, SE_MOVING);
	assert_int_equal(rq1->queue.n, 1);
	/* Nobody in kernel mode left (v5 is in user mode): v4, here. */
	t = sched_yield_choose(me, YIELD_DIRECTED,
			       SCHED_YC_PULL | SCHED_YC_SIBLING, &how);
	assert_ptr_equal(t, &S.v[4].se);
	assert_int_equal(how, SCHED_YT_SIBLING);
	assert_int_equal(t->state, SE_QUEUED);
	assert_int_equal(rq1->queue.n, 1);
	/* Not spun long enough for any sibling: nobody. */
	assert_null(
		sched_yield_choose(me, YIELD_DIRECTED, SCHED_YC_PULL, &how));
	/* An IPI for v4 (queued): now a target as KVM sees it. */
	S.v[4].se.st.wakes = 0;
	assert_int_equal(sched_wake(&S.v[4].se, 1, &(u32){ 0 }), SE_QUEUED);
	assert_true(S.v[4].se.kicked);
	t = sched_yield_choose(me, YIELD_DIRECTED,
			       SCHED_YC_PULL | SCHED_YC_SIBLING, &how);
	assert_ptr_equal(t, &S.v[4].se);
	assert_int_equal(how, SCHED_YT_HERE);
	/* Picked, it answered it. */
	me->why = SCHED_PREEMPT;
	runq_put_prev(rq0, me, 2);
	assert_ptr_equal(runq_pick(rq0, 2), &S.v[2].se);
	rq0->curr->why = SCHED_PREEMPT;
	runq_put_prev(rq0, rq0->curr, 3);
	assert_ptr_equal(runq_pick(rq0, 3), &S.v[4].se);
	assert_false(S.v[4].se.kicked);
}

/* sched_wake(): a blocked vCPU is queued; the CPU is told when the
 * wake-up queues the first one behind the running vCPU (kick it: arm its
 * slice timer) or when it idles (wake its loop), not for later ones. */
static void test_wake_tells(void **s)
{
	struct runq *rq;
	u32 cpu;

	(void)s;
	sim_init(1, 3, YIELD_DIRECTED, 100);
	sim_start();
	rq = sched_rq(0);
	for (int i = 0; i < 2; i++) { /* v0, v1 halt; v2 runs */
		runq_pick(rq, 0);
		rq->curr->why = SCHED_BLOCK;
		runq_put_prev(rq, rq->curr, 0);
	}
	assert_ptr_equal(runq_pick(rq, 0), &S.v[2].se);
	kicks_running = park_wakes = 0;
	assert_int_equal(sched_wake(&S.v[0].se, 2, &cpu), SE_BLOCKED);
	assert_int_equal(cpu, 0);
	assert_int_equal(S.v[0].se.state, SE_QUEUED);
	assert_int_equal(kicks_running, 1);
	assert_int_equal(sched_wake(&S.v[1].se, 3, &cpu), SE_BLOCKED);
	assert_int_equal(kicks_running, 1);
	assert_int_equal(park_wakes, 0); /* no idle CPU to take it */
	assert_int_equal(sched_wake(&S.v[0].se, 4, &cpu), SE_QUEUED);
	assert_int_equal(sched_wake(&S.v[2].se, 4, &cpu), SE_RUNNING);
	/* Everybody asleep: a wake-up wakes the CPU's loop. */
	sim_init(1, 1, YIELD_DIRECTED, 100);
	sim_start();
	rq = sched_rq(0);
	runq_pick(rq, 0);
	rq->curr->why = SCHED_BLOCK;
	runq_put_prev(rq, rq->curr, 0);
	rq->kick = 0;
	park_wakes = 0;
	assert_int_equal(sched_wake(&S.v[0].se, 5, &cpu), SE_BLOCKED);
	assert_int_equal(rq->kick, 1);
	assert_int_equal(park_wakes, 1);
	assert_int_equal(kicks_running, 0);
	/* A second idle CPU of the set is woken to take queued work. */
	sim_init(2, 3, YIELD_DIRECTED, 100);
	sim_start(); /* v0, v2 on CPU 0; v1 on CPU 1 */
	runq_pick(sched_rq(0), 0);
	rq = sched_rq(1);
	runq_pick(rq, 0);
	rq->curr->why = SCHED_BLOCK;
	runq_put_prev(rq, rq->curr, 0); /* CPU 1 idles */
	rq = sched_rq(0);
	runq_pick(rq, 0); /* rotate: v2 runs, v0 queued... */
	park_wakes = 0;
	S.v[0].se.why = SCHED_PREEMPT;
	sched_kick_idle_for(&S.v[0].se, 0);
	assert_int_equal(park_wakes, 1);
	assert_int_equal(sched_rq(1)->kick, 1);
}

/* sched_queued(), which turns the PAUSE intercept on and off: a vCPU
 * queued on this CPU counts; one queued on another CPU does not, not even
 * for a directed yield (which could pull it: docs/SCHED.md "PAUSE");
 * none queued: no exit is worth it. */
static void test_queued(void **s)
{
	struct runq *rq0, *rq1;

	(void)s;
	sim_init(2, 3, YIELD_DIRECTED, 100);
	sim_start(); /* v0, v2 on CPU 0; v1 on CPU 1 */
	rq0 = sched_rq(0);
	rq1 = sched_rq(1);
	runq_pick(rq0, 0); /* v0 runs, v2 queued */
	runq_pick(rq1, 0); /* v1 runs */
	assert_true(sched_queued(0));
	assert_false(sched_queued(1));
	rq0->curr->why = SCHED_BLOCK; /* v0 halts: v2 runs, nobody queued */
	runq_put_prev(rq0, rq0->curr, 1);
	runq_pick(rq0, 1);
	assert_false(sched_queued(0));
	assert_false(sched_queued(1));
	assert_false(sched_queued(MAXC)); /* no such CPU */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yield_choose),
		cmocka_unit_test(test_wake_tells),
		cmocka_unit_test(test_queued),
	};

	return cmocka_run_group_tests_name("sched_set", tests, NULL, NULL);
}
