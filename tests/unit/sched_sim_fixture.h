/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/sched_sim_fixture.h - the simulated machine of the scheduler
 * suites: scripted vCPUs on the real queue set (hv/sched/sched.c), the
 * doubles of what it uses around the queues, and the set-up that places
 * them; test_sched_sim.c runs it, test_sched_set.c calls the queue set's
 * decisions on it directly. */
#ifndef MINHV_TESTS_UNIT_SCHED_SIM_FIXTURE_H
#define MINHV_TESTS_UNIT_SCHED_SIM_FIXTURE_H

#include "hv/sched/sched.h"

#define MAXV 8
#define MAXC 4

/* Calls of the doubles sched_kick_running() and park_wake(). */
extern unsigned kicks_running, park_wakes;

/* --- the scripted vCPUs --- */
enum kind { HOG, LOCKER, HALTER, SHOOTER };
enum lstate { OUTSIDE, WANT, HOLD, DONE };

struct vm {
	int kind;
	int guest;
	int st; /* enum lstate */
	int left; /* units left in this state */
	int rounds;
	int spun; /* units spun since the last PAUSE exit */
	int streak; /* PAUSE exits in this wait (hv/svm's pause_streak) */
	u64 ran; /* units run */
	u64 done_at;
	bool kmode; /* runs in kernel mode (se.in_kernel when it leaves) */
	u32 ipi_from; /* SHOOTER: IPIs to answer, a bit per sender */
	int owed; /* SHOOTER: answers it still waits for */
	struct sched_entity se;
};

struct sched_sim {
	int ncpu, nv;
	enum sched_yield policy;
	int hold, work, rounds, pause_every, halt_for;
	int holder; /* the lock: -1 free */
	u64 pause_exits, yields, siblings, now;
	/* pause_intercept=auto (vcpu_pause_follow()): a PAUSE exits only
	 * while a vCPU is queued on its CPU; else it runs in the guest. */
	bool follow;
	struct vm v[MAXV];
	u64 bits[1];
	struct cpuset all;
};
extern struct sched_sim S;
/* The owners of the vCPUs: guest A (every vCPU at first) and guest B. */
extern const int guests[2];

/* ncpu CPUs, nv lockers of guest A, policy p, the slice; then start:
 * vCPU n queued on CPU n mod ncpu. */
void sim_init(int ncpu, int nv, enum sched_yield p, u64 slice);
void sim_start(void);

#endif
