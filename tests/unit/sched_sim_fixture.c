// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/sched_sim_fixture.c - the simulated machine of the scheduler
 * suites (sched_sim_fixture.h): the doubles and the set-up. */
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

/* --- doubles of what hv/sched/sched.c uses around the queues --- */
struct percpu **g_percpu;
u32 g_ncpus;
unsigned kicks_running, park_wakes;

void cpu_relax(void)
{
}

void *page_alloc_ptr(u64 npages)
{
	return calloc(npages, 4096);
}

bool park_ready(void)
{
	return true;
}

int park_wake(u32 cpu)
{
	(void)cpu;
	park_wakes++;
	return 0;
}

void sched_kick_running(struct sched_entity *se)
{
	(void)se;
	kicks_running++;
}

struct sched_sim S;
const int guests[2];

void sim_init(int ncpu, int nv, enum sched_yield p, u64 slice)
{
	memset(&S, 0, sizeof(S));
	S.ncpu = ncpu;
	S.nv = nv;
	S.policy = p;
	S.holder = -1;
	S.hold = 30;
	S.work = 10;
	S.rounds = 20;
	S.pause_every = 1;
	S.follow = true;
	S.halt_for = 0;
	S.bits[0] = (1ULL << ncpu) - 1;
	S.all = (struct cpuset){ (u32)ncpu, S.bits };
	g_ncpus = MAXC; /* sched_init() sizes for the first caller */
	kicks_running = park_wakes = 0;
	assert_int_equal(sched_init(), 0);
	for (int c = 0; c < MAXC; c++)
		runq_init(sched_rq((u32)c), (u32)c);
	for (int i = 0; i < nv; i++) {
		struct vm *v = &S.v[i];

		v->kind = LOCKER;
		v->st = OUTSIDE;
		v->left = 1 + i;
		v->se.id = (u32)i;
		v->se.owner = &guests[0];
		v->se.owner_id = 1;
		v->se.allowed = &S.all;
		v->se.slice = slice;
		v->se.last_cpu = SCHED_NO_CPU;
	}
}

void sim_start(void)
{
	for (int i = 0; i < S.nv; i++) {
		struct vm *v = &S.v[i];
		bool start;

		v->rounds = S.rounds;
		if (v->kind == HALTER)
			v->left = S.work;
		/* vCPU n on CPU n mod the CPUs, as hv/svm places them. */
		sched_rq((u32)(i % S.ncpu))->loop = true;
		assert_int_equal(
			sched_add(&v->se, (u32)(i % S.ncpu), 0, &start), 0);
	}
}
