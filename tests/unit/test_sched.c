// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_sched.c - the run queue (hv/sched/runq.c) and CPU sets
 * (hv/sched/cpuset.c) on a fake clock: round robin with a slice, block
 * and timer wake-up, the yield choice per policy (KVM's directed yield
 * rules), donated turns, the switch flags (TLB flush, IBPB), stealing and
 * reaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/sched/runq.h"

#define SLICE 100
#define NE 6

static u64 bits[2];
static struct cpuset all = { 128, bits };
static struct runq rq;
static struct sched_entity e[NE];
static const int guest_a, guest_b;

static int setup(void **s)
{
	(void)s;
	bits[0] = bits[1] = ~0ULL;
	runq_init(&rq, 0);
	memset(e, 0, sizeof(e));
	for (int i = 0; i < NE; i++) {
		e[i].id = (u32)i;
		e[i].owner = &guest_a;
		e[i].owner_id = 1;
		e[i].allowed = &all;
		e[i].slice = SLICE;
		e[i].last_cpu = SCHED_NO_CPU;
	}
	return 0;
}

/* rq.curr leaves for why at now; the next one is picked. */
static struct sched_entity *leave(enum sched_why why, u64 now)
{
	struct sched_entity *c = rq.curr;

	assert_non_null(c);
	c->why = why;
	runq_put_prev(&rq, c, now);
	return runq_pick(&rq, now);
}

static void test_cpuset(void **s)
{
	u64 w[3] = { 0 };
	struct cpuset cs = { 130, w };

	(void)s;
	assert_int_equal(cpuset_count(&cs), 0);
	assert_int_equal(cpuset_next(&cs, 0), -ENOENT);
	assert_int_equal(cpuset_nth(&cs, 0), -ENOENT);
	cpuset_add(&cs, 3);
	cpuset_add(&cs, 64);
	cpuset_add(&cs, 129);
	cpuset_add(&cs, 130); /* beyond nbits: ignored */
	assert_int_equal(w[2], 2);
	assert_int_equal(cpuset_count(&cs), 3);
	assert_true(cpuset_has(&cs, 64));
	assert_false(cpuset_has(&cs, 65));
	assert_false(cpuset_has(&cs, 130));
	assert_int_equal(cpuset_next(&cs, 0), 3);
	assert_int_equal(cpuset_next(&cs, 4), 64);
	assert_int_equal(cpuset_next(&cs, 65), 129);
	assert_int_equal(cpuset_next(&cs, 130), -ENOENT);
	/* vCPU n goes to the (n mod count)-th member. */
	assert_int_equal(cpuset_nth(&cs, 0), 3);
	assert_int_equal(cpuset_nth(&cs, 1), 64);
	assert_int_equal(cpuset_nth(&cs, 2), 129);
	assert_int_equal(cpuset_nth(&cs, 3), -ENOENT);
}

/* Three vCPUs on one CPU take turns of one slice each, in order; with
 * only one there is never a preemption, however long it runs. */
static void test_round_robin(void **s)
{
	(void)s;
	runq_add(&rq, &e[0], 0);
	assert_ptr_equal(runq_pick(&rq, 0), &e[0]);
	assert_int_equal(rq.slice_end, SLICE);
	assert_false(runq_should_preempt(&rq, 10 * SLICE));
	assert_int_equal(runq_deadline(&rq), 0); /* no timer needed */
	runq_add(&rq, &e[1], 5);
	runq_add(&rq, &e[2], 6);
	assert_int_equal(rq.nr, 3);
	assert_true(runq_shared(&rq));
	/* The slice counts from the pick: 1000 is long past it. */
	assert_int_equal(runq_deadline(&rq), SLICE);
	rq.slice_end = 1000 + SLICE;
	assert_false(runq_should_preempt(&rq, 1000 + SLICE - 1));
	assert_true(runq_should_preempt(&rq, 1000 + SLICE));
	assert_ptr_equal(leave(SCHED_PREEMPT, 1100), &e[1]);
	assert_int_equal(rq.slice_end, 1100 + SLICE);
	assert_ptr_equal(leave(SCHED_PREEMPT, 1200), &e[2]);
	assert_ptr_equal(leave(SCHED_PREEMPT, 1300), &e[0]);
	assert_ptr_equal(leave(SCHED_PREEMPT, 1400), &e[1]);
	assert_int_equal(e[0].st.preempts, 2);
	assert_int_equal(e[0].st.picks, 2);
	/* e[0] ran [0, 1100) and [1300, 1400), waited [1100, 1300). */
	assert_int_equal(e[0].st.run_tsc, 1200);
	assert_int_equal(e[0].st.wait_tsc, 200);
	assert_int_equal(e[1].st.wait_tsc, (1100 - 5) + (1400 - 1200));
}

/* HLT: a blocked vCPU leaves the queue; its timer or an event brings it
 * back at the tail; the CPU is told only when it must act. */
static void test_block_wake(void **s)
{
	(void)s;
	runq_add(&rq, &e[0], 0);
	runq_add(&rq, &e[1], 0);
	runq_pick(&rq, 0);
	e[0].wake_at = 500;
	assert_ptr_equal(leave(SCHED_BLOCK, 10), &e[1]);
	assert_int_equal(e[0].state, SE_BLOCKED);
	assert_int_equal(rq.sleepers.n, 1);
	assert_int_equal(rq.next_wake, 500);
	/* Alone and a sleeper with a timer: the deadline is the timer. */
	assert_int_equal(runq_deadline(&rq), 500);
	assert_int_equal(runq_wake_due(&rq, 499), 0);
	assert_int_equal(runq_wake_due(&rq, 500), 1);
	assert_int_equal(e[0].state, SE_QUEUED);
	assert_int_equal(rq.next_wake, 0);
	/* The first one queued behind the running one: kick it. */
	assert_true(runq_wake_needs_kick(&rq));
	/* Block again without a timer; only an event wakes it. */
	assert_ptr_equal(leave(SCHED_PREEMPT, 600), &e[0]);
	e[0].wake_at = 0;
	assert_ptr_equal(leave(SCHED_BLOCK, 610), &e[1]);
	assert_int_equal(runq_wake_due(&rq, ~0ULL), 0);
	assert_false(runq_wake(&rq, &e[1], 620)); /* running: not blocked */
	assert_true(runq_wake(&rq, &e[0], 620));
	assert_false(runq_wake(&rq, &e[0], 621)); /* twice: once */
	assert_int_equal(e[0].st.wakes, 2);
	assert_int_equal(e[0].st.blocks, 2);
	/* Everybody asleep: the CPU idles; a wake-up must tell it. */
	e[1].wake_at = 0;
	assert_ptr_equal(leave(SCHED_BLOCK, 700), &e[0]);
	e[0].wake_at = 0;
	assert_null(leave(SCHED_BLOCK, 710));
	assert_null(rq.curr);
	assert_false(runq_empty(&rq));
	assert_true(runq_wake(&rq, &e[1], 800));
	assert_true(runq_wake_needs_kick(&rq));
}

/* A second timer sleeper: next_wake is always the earliest, also after
 * the earliest one was woken by an event. */
static void test_next_wake(void **s)
{
	(void)s;
	for (int i = 0; i < 3; i++)
		runq_add(&rq, &e[i], 0);
	runq_pick(&rq, 0);
	e[0].wake_at = 900;
	leave(SCHED_BLOCK, 1);
	e[1].wake_at = 300;
	leave(SCHED_BLOCK, 2);
	assert_int_equal(rq.next_wake, 300);
	assert_true(runq_wake(&rq, &e[1], 3));
	assert_int_equal(rq.next_wake, 900);
	assert_int_equal(runq_wake_due(&rq, 950), 1);
	assert_int_equal(rq.next_wake, 0);
}

/* Leaving for good drops it from the CPU; a restart fills its CPUID and
 * TLB state again (last_cpu forgotten). */
static void test_exit(void **s)
{
	(void)s;
	runq_add(&rq, &e[0], 0);
	runq_pick(&rq, 0);
	assert_int_equal(rq.nr, 1);
	assert_null(leave(SCHED_EXIT, 50));
	assert_int_equal(e[0].state, SE_NONE);
	assert_int_equal(e[0].last_cpu, SCHED_NO_CPU);
	assert_true(runq_empty(&rq));
}

/* The choice of a PAUSE exit per policy: none never, any the head,
 * directed the first eligible queued vCPU of the same guest. */
static void test_yield_target(void **s)
{
	(void)s;
	e[1].owner = &guest_b; /* another guest */
	for (int i = 0; i < 4; i++)
		runq_add(&rq, &e[i], 0);
	runq_pick(&rq, 0); /* e[0] runs and spins */
	assert_null(runq_yield_target(&rq, &e[0], YIELD_NONE));
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_ANY), &e[1]);
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_DIRECTED), &e[2]);
	/* A spinner is eligible every other time (dy_eligible). */
	e[2].spinning = true;
	e[2].dy_eligible = false;
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_DIRECTED), &e[3]);
	e[3].spinning = true;
	e[3].dy_eligible = false;
	/* e[2] was passed over once: its turn now. Then both spinners are
	 * passed over once each, and e[2] is first again. */
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_DIRECTED), &e[2]);
	assert_null(runq_yield_target(&rq, &e[0], YIELD_DIRECTED));
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_DIRECTED), &e[2]);
	/* Spinning in kernel mode: only vCPUs preempted in kernel mode. */
	e[2].spinning = e[3].spinning = false;
	e[0].in_kernel = true;
	e[3].in_kernel = true;
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_DIRECTED), &e[3]);
	e[3].in_kernel = false;
	assert_null(runq_yield_target(&rq, &e[0], YIELD_DIRECTED));
	/* ... or one with an event since (KVM's pending interrupt). */
	e[2].kicked = true;
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_DIRECTED), &e[2]);
	e[2].kicked = false;
	/* No target: the first sibling queued, of the same guest only. */
	assert_ptr_equal(runq_yield_sibling(&rq, &e[0]), &e[2]);
	e[2].owner = e[3].owner = &guest_b;
	assert_null(runq_yield_sibling(&rq, &e[0]));
	e[2].owner = e[3].owner = &guest_a;
	/* ... but any user-mode one when it spins in user mode. */
	e[0].in_kernel = false;
	assert_ptr_equal(runq_yield_target(&rq, &e[0], YIELD_DIRECTED), &e[2]);
}

/* A directed yield hands over only what is left of the turn: the queue's
 * order and the next turn's start stay as they were (no guest gains time
 * by yielding, none is starved by another's yields). */
static void test_donated_turn(void **s)
{
	struct sched_entity *t;

	(void)s;
	e[1].owner = &guest_b;
	runq_add(&rq, &e[0], 0);
	runq_add(&rq, &e[1], 0);
	runq_add(&rq, &e[2], 0);
	runq_pick(&rq, 0); /* e[0]'s turn: [0, 100) */
	t = runq_yield_target(&rq, &e[0], YIELD_DIRECTED);
	assert_ptr_equal(t, &e[2]);
	e[0].yield_to = t;
	assert_ptr_equal(leave(SCHED_YIELD, 30), &e[2]);
	assert_int_equal(rq.slice_end, SLICE); /* not 30 + SLICE */
	assert_true(e[0].spinning);
	assert_false(e[2].spinning);
	assert_int_equal(e[2].st.yielded_to, 1);
	assert_int_equal(e[0].st.yields, 1);
	/* The turn ends: the other guest's vCPU, first in line, runs. */
	assert_true(runq_should_preempt(&rq, SLICE));
	assert_ptr_equal(leave(SCHED_PREEMPT, SLICE), &e[1]);
	/* A yield after the turn is over gives nobody a head start: the
	 * queue is [e0, e2]; e1 yields to e2 at 300, its turn over at 200. */
	e[1].yield_to = &e[2];
	rq.curr->why = SCHED_YIELD;
	runq_put_prev(&rq, rq.curr, 300);
	assert_ptr_equal(rq.next, &e[2]);
	assert_ptr_equal(runq_pick(&rq, 300), &e[0]); /* the head */
	assert_null(rq.next);
	assert_int_equal(rq.slice_end, 300 + SLICE);
	assert_int_equal(e[2].st.yielded_to, 1);
}

/* A target taken from another CPU's queue (SE_MOVING) runs next here. */
static void test_moved_target(void **s)
{
	struct runq other;

	(void)s;
	runq_init(&other, 1);
	runq_add(&rq, &e[0], 0);
	runq_add(&other, &e[3], 0);
	runq_add(&other, &e[4], 0);
	runq_pick(&other, 0); /* e[3] runs there, e[4] waits */
	runq_pick(&rq, 0);
	assert_ptr_equal(runq_yield_target(&other, &e[0], YIELD_DIRECTED),
			 &e[4]);
	runq_detach(&other, &e[4]);
	assert_int_equal(e[4].state, SE_MOVING);
	assert_int_equal(other.nr, 1);
	runq_set_yield(&e[0], &e[4], YIELD_DIRECTED, true);
	assert_ptr_equal(leave(SCHED_YIELD, 10), &e[4]);
	assert_int_equal(e[4].cpu, 0);
	assert_int_equal(rq.nr, 2);
	assert_int_equal(e[4].st.migrations, 0); /* never ran anywhere */
	/* It ran here now; picked there again later is a migration. */
	e[4].why = SCHED_PREEMPT;
	runq_put_prev(&rq, &e[4], 20);
	runq_detach(&rq, &e[4]);
	runq_add(&other, &e[4], 20);
	e[3].why = SCHED_BLOCK;
	runq_put_prev(&other, &e[3], 30);
	assert_ptr_equal(runq_pick(&other, 30), &e[4]);
	assert_int_equal(e[4].st.migrations, 1);
}

/* A local target that an idle CPU takes (SE_MOVING) between the choice
 * and the yielder's put back stays the thief's: queued once, there. */
static void test_target_stolen_meanwhile(void **s)
{
	struct runq thief;

	(void)s;
	runq_init(&thief, 1);
	runq_add(&rq, &e[0], 0);
	runq_add(&rq, &e[1], 0);
	runq_pick(&rq, 0);
	runq_set_yield(&e[0], runq_yield_target(&rq, &e[0], YIELD_DIRECTED),
		       YIELD_DIRECTED, false);
	assert_ptr_equal(e[0].yield_to, &e[1]);
	runq_detach(&rq, &e[1]); /* the thief's sched_steal() */
	runq_put_prev(&rq, &e[0], 10);
	assert_int_equal(rq.queue.n, 1); /* e[0] only */
	assert_int_equal(rq.nr, 1);
	assert_null(rq.next);
	assert_int_equal(e[1].state, SE_MOVING);
	runq_add(&thief, &e[1], 11);
	assert_int_equal(e[1].cpu, 1);
	assert_ptr_equal(runq_pick(&rq, 12), &e[0]);
	assert_ptr_equal(runq_pick(&thief, 12), &e[1]);
	/* pause_yield=any from this queue: nothing to queue, no donation. */
	runq_set_yield(&e[0], &e[2], YIELD_ANY, false);
	assert_null(e[0].yield_to);
}

/* TLB flush when another vCPU ran here or this one ran elsewhere since;
 * IBPB only between guests. */
static void test_switch_flags(void **s)
{
	(void)s;
	e[5].owner = &guest_b;
	e[5].owner_id = 2;
	runq_add(&rq, &e[0], 0);
	runq_pick(&rq, 0);
	assert_int_equal(runq_switch(&rq, &e[0]), RUNQ_SW_FLUSH);
	/* Alone and back: nothing to do. */
	e[0].why = SCHED_PREEMPT;
	runq_put_prev(&rq, &e[0], 10);
	assert_ptr_equal(runq_pick(&rq, 10), &e[0]);
	assert_int_equal(runq_switch(&rq, &e[0]), 0);
	/* A sibling of the same guest: flush, no IBPB. */
	runq_add(&rq, &e[1], 10);
	assert_ptr_equal(leave(SCHED_PREEMPT, 20), &e[1]);
	assert_int_equal(runq_switch(&rq, &e[1]), RUNQ_SW_FLUSH);
	/* Another guest: both. */
	runq_add(&rq, &e[5], 20);
	assert_ptr_equal(leave(SCHED_BLOCK, 30), &e[0]);
	runq_switch(&rq, &e[0]);
	assert_ptr_equal(leave(SCHED_EXIT, 40), &e[5]);
	assert_int_equal(runq_switch(&rq, &e[5]), RUNQ_SW_FLUSH | RUNQ_SW_IBPB);
	assert_int_equal(rq.st.ibpb, 1);
	/* The same vCPU after it ran on another CPU: flush. */
	e[5].last_cpu = 7;
	assert_int_equal(runq_switch(&rq, &e[5]), RUNQ_SW_FLUSH);
}

static void test_steal_candidate(void **s)
{
	u64 only1 = 1ULL << 1;
	struct cpuset one = { 64, &only1 };

	(void)s;
	runq_add(&rq, &e[0], 0);
	runq_add(&rq, &e[1], 0);
	runq_add(&rq, &e[2], 0);
	runq_pick(&rq, 0);
	e[1].allowed = &one; /* may run on CPU 1 only */
	assert_ptr_equal(runq_steal_candidate(&rq, 2), &e[2]);
	assert_ptr_equal(runq_steal_candidate(&rq, 1), &e[1]);
	e[2].allowed = &one;
	assert_null(runq_steal_candidate(&rq, 2));
}

static bool dead_b(const struct sched_entity *se)
{
	return se->owner == &guest_b;
}

/* A stopping guest's queued and sleeping vCPUs leave the CPU. */
static void test_reap(void **s)
{
	struct sched_entity *out[NE];

	(void)s;
	e[1].owner = e[2].owner = e[3].owner = &guest_b;
	for (int i = 0; i < 4; i++)
		runq_add(&rq, &e[i], 0);
	runq_pick(&rq, 0); /* e[0] runs */
	e[0].why = SCHED_PREEMPT;
	runq_put_prev(&rq, &e[0], 1);
	runq_pick(&rq, 1); /* e[1] runs (not reaped: it leaves itself) */
	e[1].wake_at = 77;
	e[1].why = SCHED_BLOCK;
	runq_put_prev(&rq, &e[1], 2);
	runq_pick(&rq, 2); /* e[2] */
	rq.next = &e[3];
	assert_int_equal(runq_reap(&rq, dead_b, out, NE), 2);
	assert_ptr_equal(out[0], &e[3]);
	assert_ptr_equal(out[1], &e[1]);
	assert_int_equal(e[1].state, SE_NONE);
	assert_int_equal(e[3].state, SE_NONE);
	assert_null(rq.next);
	assert_int_equal(rq.next_wake, 0);
	assert_int_equal(rq.nr, 2); /* e[0] queued, e[2] running */
	assert_int_equal(e[2].state, SE_RUNNING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_cpuset, setup),
		cmocka_unit_test_setup(test_round_robin, setup),
		cmocka_unit_test_setup(test_block_wake, setup),
		cmocka_unit_test_setup(test_next_wake, setup),
		cmocka_unit_test_setup(test_exit, setup),
		cmocka_unit_test_setup(test_yield_target, setup),
		cmocka_unit_test_setup(test_donated_turn, setup),
		cmocka_unit_test_setup(test_moved_target, setup),
		cmocka_unit_test_setup(test_target_stolen_meanwhile, setup),
		cmocka_unit_test_setup(test_switch_flags, setup),
		cmocka_unit_test_setup(test_steal_candidate, setup),
		cmocka_unit_test_setup(test_reap, setup),
	};
	return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
