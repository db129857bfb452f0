// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_sched_sim.c - a simulated machine: scripted vCPUs (a
 * spinlock workload whose holder can be preempted, a CPU hog that never
 * exits, a vCPU that halts on a timer) on CPUs whose loop is the run loop's
 * (hv/svm/sched_cpu.c) decision for decision, through the real run queues
 * (hv/sched/runq.c) and queue set (hv/sched/sched.c: wake, steal, directed
 * pull), on a fake clock where one step is one unit of guest work. The
 * world switch is the double: a step runs the script of the vCPU a CPU
 * picked and returns its exit (none, PAUSE, HLT, done). Checks: PAUSE exits
 * yield as pause_yield= says, and directed beats none; a vCPU that never
 * exits is preempted at its slice; a guest's yields cannot starve another
 * guest; a timer wakes a halted vCPU within a slice; an idle CPU takes
 * queued work from a busy one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/mm.h"
#include "hv/park/park.h"
#include "hv/percpu.h"
#include "hv/sched/sched.h"
#include "tests/unit/sched_sim_fixture.h"

static struct vm *vm_of(struct sched_entity *se)
{
	return (struct vm *)((char *)se - offsetof(struct vm, se));
}

enum ev { EV_NONE, EV_PAUSE, EV_HLT, EV_DONE };

/* A SHOOTER: user-mode work, then a TLB shootdown in kernel mode: an IPI
 * to every sibling (sched_wake(), as vcpu_kick() does), PAUSE until all
 * have answered. An IPI is answered in the unit its target runs next,
 * whatever it does (interrupts on in both modes). */
static enum ev shoot(struct vm *v, int id)
{
	if (v->ipi_from) {
		for (int i = 0; i < S.nv; i++)
			if (v->ipi_from & (1u << i))
				S.v[i].owed--;
		v->ipi_from = 0;
		return EV_NONE;
	}
	if (v->st == OUTSIDE) {
		if (--v->left > 0)
			return EV_NONE;
		v->st = WANT;
		v->kmode = true;
		v->owed = S.nv - 1;
		for (int i = 0; i < S.nv; i++) {
			u32 cpu;

			if (i == id)
				continue;
			S.v[i].ipi_from |= 1u << id;
			sched_wake(&S.v[i].se, S.now, &cpu);
		}
		return EV_NONE;
	}
	if (v->owed > 0) {
		if (++v->spun < S.pause_every)
			return EV_NONE;
		v->spun = 0;
		return EV_PAUSE;
	}
	v->kmode = false;
	v->streak = 0;
	if (v->st == DONE || --v->rounds == 0) {
		/* Done: halts, and answers IPIs as long as others shoot. */
		if (v->st != DONE)
			v->done_at = S.now;
		v->st = DONE;
		return EV_HLT;
	}
	v->st = OUTSIDE;
	v->left = S.work;
	return EV_NONE;
}

/* The world-switch double: run v for one unit; what made it exit. */
static enum ev step(struct vm *v, int id)
{
	v->ran++;
	if (v->kind == HOG)
		return EV_NONE;
	if (v->kind == SHOOTER)
		return shoot(v, id);
	if (v->kind == HALTER) {
		if (v->left-- > 0)
			return EV_NONE;
		v->left = S.work;
		return EV_HLT;
	}
	switch (v->st) {
	case OUTSIDE:
		if (--v->left <= 0)
			v->st = WANT;
		return EV_NONE;
	case WANT:
		if (S.holder < 0) {
			S.holder = id;
			v->streak = 0;
			v->st = HOLD;
			v->left = S.hold;
			v->spun = 0;
			return EV_NONE;
		}
		/* PAUSE in the spin loop; the filter lets every
		 * pause_every-th one exit (1: no filter, as TCG). */
		if (++v->spun < S.pause_every)
			return EV_NONE;
		v->spun = 0;
		return EV_PAUSE;
	case HOLD:
		if (--v->left > 0)
			return EV_NONE;
		S.holder = -1;
		if (--v->rounds == 0) {
			v->st = DONE;
			v->done_at = S.now;
			return EV_DONE;
		}
		v->st = OUTSIDE;
		v->left = S.work;
		return EV_NONE;
	}
	return EV_DONE;
}

/* One CPU's turn at time now, as hv/svm/sched_cpu.c's loop takes it. */
static void cpu_step(int c)
{
	struct runq *rq = sched_rq((u32)c);
	struct sched_entity *se, *t;
	unsigned how;
	enum ev ev;

	runq_wake_due(rq, S.now);
	if (!rq->curr) {
		se = runq_pick(rq, S.now);
		if (!se) { /* idle: take queued work from a busy CPU */
			t = sched_steal((u32)c);
			if (!t)
				return;
			runq_add(rq, t, S.now);
			se = runq_pick(rq, S.now);
		}
		runq_switch(rq, se);
	}
	/* The host timer's tick: preempt at the end of the slice. */
	if (runq_should_preempt(rq, S.now)) {
		rq->curr->why = SCHED_PREEMPT;
		rq->curr->in_kernel = vm_of(rq->curr)->kmode;
		runq_put_prev(rq, rq->curr, S.now);
		runq_switch(rq, runq_pick(rq, S.now));
	}
	se = rq->curr;
	ev = step(vm_of(se), (int)se->id);
	switch (ev) {
	case EV_NONE:
		return;
	case EV_PAUSE:
		if (S.follow && !sched_queued((u32)c))
			return; /* not intercepted: nobody waits for this CPU */
		S.pause_exits++;
		se->in_kernel = vm_of(se)->kmode; /* vcpu_pause_yield()'s */
		/* As vcpu_pause_yield(): any sibling after 8 in a row. */
		t = sched_yield_choose(se, S.policy,
				       SCHED_YC_PULL |
					       (++vm_of(se)->streak >= 8 ?
							SCHED_YC_SIBLING :
							0),
				       &how);
		if (!t)
			return; /* step over the PAUSE, keep running */
		S.yields++;
		S.siblings += how == SCHED_YT_SIBLING;
		runq_set_yield(se, t, S.policy, how == SCHED_YT_PULLED);
		break;
	case EV_HLT:
		se->why = SCHED_BLOCK;
		se->wake_at = S.now + (u64)S.halt_for;
		break;
	case EV_DONE:
		se->why = SCHED_EXIT;
		break;
	}
	se->in_kernel = vm_of(se)->kmode; /* run_turn()'s CPL 0 */
	runq_put_prev(rq, se, S.now);
	se = runq_pick(rq, S.now);
	if (se)
		runq_switch(rq, se);
}

/* Every locker is done (false without lockers: run to the limit). */
static bool all_done(void)
{
	int lockers = 0;

	for (int i = 0; i < S.nv; i++) {
		if (S.v[i].kind != LOCKER && S.v[i].kind != SHOOTER)
			continue;
		if (S.v[i].st != DONE)
			return false;
		lockers++;
	}
	return lockers > 0;
}

/* Run until every locker is done or limit steps; the finishing time. */
static u64 sim_run(u64 limit)
{
	for (S.now = 1; S.now < limit && !all_done(); S.now++)
		for (int c = 0; c < S.ncpu; c++)
			cpu_step(c);
	return S.now;
}

struct outcome {
	u64 time, exits, yields;
	u64 b_ran; /* units guest B's vCPUs ran */
};

/* Four lockers of guest A on two CPUs; with hogs, guest B's CPU-bound
 * vCPUs on the same CPUs, one each. */
static struct outcome spinlock_run(enum sched_yield p, bool hogs)
{
	struct outcome o;
	int sum = 0;

	sim_init(2, hogs ? 6 : 4, p, 100);
	for (int i = 4; i < S.nv; i++) {
		S.v[i].kind = HOG;
		S.v[i].se.owner = &guests[1];
		S.v[i].se.owner_id = 2;
	}
	sim_start();
	o.time = sim_run(1000000);
	o.exits = S.pause_exits;
	o.yields = S.yields;
	o.b_ran = 0;
	for (int i = 4; i < S.nv; i++)
		o.b_ran += S.v[i].ran;
	for (int i = 0; i < 4; i++)
		sum += S.v[i].st == DONE;
	assert_int_equal(sum, 4); /* it must finish, whatever the policy */
	print_message(
		"pause_yield=%s%s: %llu steps, %llu PAUSE exits, %llu yields\n",
		p == YIELD_NONE ? "none" :
		p == YIELD_ANY	? "any" :
				  "directed",
		hogs ? " (and guest B)" : "", (unsigned long long)o.time,
		(unsigned long long)o.exits, (unsigned long long)o.yields);
	return o;
}

/* Four lockers on two CPUs, every PAUSE exits (no filter): a holder
 * preempted with the lock is the sibling of a spinner on its CPU.
 * directed: fewer PAUSE exits and >= 20 % sooner than none. Alone on its
 * CPUs, any's target is a sibling too (the same result within 2 %). */
static void test_spinlock_policies(void **s)
{
	struct outcome none = spinlock_run(YIELD_NONE, false);
	struct outcome any = spinlock_run(YIELD_ANY, false);
	struct outcome dir = spinlock_run(YIELD_DIRECTED, false);

	(void)s;
	assert_int_equal(none.yields, 0);
	assert_true(any.yields > 0);
	assert_true(dir.yields > 0);
	assert_true(dir.exits < none.exits);
	assert_true(dir.time * 100 <= none.time * 80);
	assert_true(dir.time * 100 <= any.time * 102);
}

/* The same with another guest's CPU-bound vCPU on each CPU (guest B: one
 * of three vCPUs per CPU). Whatever the policy, B gets at least its third
 * of both CPUs while A works (A's yields spend A's turns, or hand them to
 * B with any); directed still beats none for A. */
static void test_spinlock_neighbour(void **s)
{
	enum sched_yield pol[] = { YIELD_NONE, YIELD_ANY, YIELD_DIRECTED };
	struct outcome o[3];

	(void)s;
	for (unsigned p = 0; p < 3; p++) {
		o[p] = spinlock_run(pol[p], true);
		print_message("  guest B ran %llu of %llu\n",
			      (unsigned long long)o[p].b_ran,
			      (unsigned long long)(2 * o[p].time));
		assert_true(o[p].b_ran * 3 * 100 >= 2 * o[p].time * 95);
	}
	assert_true(o[2].time < o[0].time);
	assert_true(o[1].b_ran * o[2].time > o[2].b_ran * o[1].time);
}

/* Four SHOOTERs on two CPUs (Linux's TLB shootdowns, call-function IPIs):
 * a kernel-mode spinner waits for siblings preempted in user mode to take
 * its IPI. KVM counts a vCPU with an interrupt pending as in kernel mode
 * (dy_has_pending_interrupt): so does directed (se.kicked), and >= 20 %
 * sooner than none, no slower than any. Without it, no sibling in user
 * mode is a target and directed spins its turns out like none. */
static struct outcome shoot_run(enum sched_yield p)
{
	struct outcome o = { 0 };

	sim_init(2, 4, p, 100);
	for (int i = 0; i < 4; i++)
		S.v[i].kind = SHOOTER;
	S.work = 40;
	S.rounds = 15;
	S.halt_for = 1000000000; /* done: only an IPI wakes it */
	sim_start();
	o.time = sim_run(1000000);
	o.exits = S.pause_exits;
	o.yields = S.yields;
	assert_true(all_done());
	print_message(
		"shootdowns, pause_yield=%s: %llu steps, %llu PAUSE exits, %llu yields (%llu to any sibling)\n",
		p == YIELD_NONE ? "none" :
		p == YIELD_ANY	? "any" :
				  "directed",
		(unsigned long long)o.time, (unsigned long long)o.exits,
		(unsigned long long)o.yields, (unsigned long long)S.siblings);
	return o;
}

static void test_shootdown_policies(void **s)
{
	struct outcome none = shoot_run(YIELD_NONE);
	struct outcome any = shoot_run(YIELD_ANY);
	struct outcome dir = shoot_run(YIELD_DIRECTED);

	(void)s;
	assert_true(dir.time * 100 <= none.time * 80);
	assert_true(dir.time * 100 <= any.time * 102);
	assert_true(dir.exits < none.exits);
}

/* With the PAUSE filter (an exit per 50 spinning units) the same holds. */
static void test_spinlock_filter(void **s)
{
	u64 t_none, t_dir;

	(void)s;
	sim_init(2, 4, YIELD_NONE, 100);
	S.pause_every = 50;
	sim_start();
	t_none = sim_run(1000000);
	sim_init(2, 4, YIELD_DIRECTED, 100);
	S.pause_every = 50;
	sim_start();
	t_dir = sim_run(1000000);
	assert_true(all_done());
	assert_true(t_dir < t_none);
}

/* A vCPU that never exits shares its CPU: the timer preempts it at each
 * slice end, and its sibling gets its half. Alone, it is never preempted. */
static void test_hog(void **s)
{
	(void)s;
	sim_init(1, 2, YIELD_DIRECTED, 100);
	S.v[0].kind = HOG;
	S.v[1].kind = HOG;
	sim_start();
	sim_run(10000);
	assert_in_range(S.v[1].ran, 4900, 5100);
	assert_in_range(S.v[0].se.st.preempts, 45, 55);
	sim_init(1, 1, YIELD_DIRECTED, 100);
	S.v[0].kind = HOG;
	sim_start();
	sim_run(10000);
	assert_int_equal(S.v[0].se.st.preempts, 0);
	assert_int_equal(S.v[0].se.st.picks, 1);
}

/* Guest A's three vCPUs spin forever on a lock nobody holds for them
 * (every PAUSE exits and yields to a sibling); guest B's one vCPU is
 * CPU-bound. B still gets its fair quarter of the CPU. */
static void test_guests_fair(void **s)
{
	enum sched_yield pol[] = { YIELD_NONE, YIELD_ANY, YIELD_DIRECTED };

	(void)s;
	for (unsigned p = 0; p < 3; p++) {
		sim_init(1, 4, pol[p], 100);
		for (int i = 0; i < 3; i++) {
			S.v[i].kind = LOCKER;
			S.v[i].kmode = true;
		}
		S.holder = 99; /* held forever */
		S.v[3].kind = HOG;
		S.v[3].se.owner = &guests[1];
		S.v[3].se.owner_id = 2;
		sim_start();
		S.v[0].st = S.v[1].st = S.v[2].st = WANT;
		sim_run(40000);
		print_message("pause_yield=%u: guest B ran %llu of 40000\n", p,
			      (unsigned long long)S.v[3].ran);
		assert_true(S.v[3].ran >= 40000 / 4 - 200);
	}
}

/* A halted vCPU with a timer is woken by it and runs within one slice of
 * its deadline although its sibling never exits. */
static void test_halt_timer(void **s)
{
	(void)s;
	sim_init(1, 2, YIELD_DIRECTED, 100);
	S.v[0].kind = HALTER;
	S.v[1].kind = HOG;
	S.work = 5; /* runs 5 units, halts for 1000 */
	S.halt_for = 1000;
	sim_start();
	sim_run(20000);
	/* ~20000 / 1005 halts, each resumed at most one slice late. */
	assert_in_range(S.v[0].se.st.blocks, 17, 20);
	assert_true(S.v[0].se.st.wait_tsc <= S.v[0].se.st.picks * 100);
	assert_true(S.v[1].ran >= 19000);
}

/* Three hogs placed 2 + 1 on two CPUs, the lone one halting for long: the
 * idle CPU takes a queued hog from the busy one. */
static void test_idle_steal(void **s)
{
	(void)s;
	sim_init(2, 3, YIELD_DIRECTED, 100);
	S.v[0].kind = HOG; /* CPU 0 */
	S.v[1].kind = HALTER; /* CPU 1 */
	S.v[2].kind = HOG; /* CPU 0 */
	S.work = 150; /* both hogs have run on CPU 0 by then */
	S.halt_for = 100000;
	sim_start();
	sim_run(10000);
	assert_int_equal(sched_rq(0)->st.steals, 1);
	assert_true(S.v[0].ran + S.v[2].ran >= 2 * 10000 - 300);
	assert_int_equal(S.v[0].se.st.migrations + S.v[2].se.st.migrations, 1);
	assert_int_equal(S.v[0].se.cpu + S.v[2].se.cpu, 1); /* one each */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spinlock_policies),
		cmocka_unit_test(test_spinlock_neighbour),
		cmocka_unit_test(test_spinlock_filter),
		cmocka_unit_test(test_shootdown_policies),
		cmocka_unit_test(test_hog),
		cmocka_unit_test(test_guests_fair),
		cmocka_unit_test(test_halt_timer),
		cmocka_unit_test(test_idle_steal),
	};
	return cmocka_run_group_tests_name("sched_sim", tests, NULL, NULL);
}
