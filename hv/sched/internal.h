/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/sched/internal.h - the run queues' state, private to hv/sched/sched.c
 * and the unit tests (which start each test without queues,
 * tests/doubles/sched_hooks.c). */
#ifndef MINHV_HV_SCHED_INTERNAL_H
#define MINHV_HV_SCHED_INTERNAL_H

#include "hv/sched/runq.h"

struct sched_state {
	struct runq *rqs; /* one per CPU, from the page pool */
	u32 nrq; /* how many; 0 until sched_init() */
};
extern struct sched_state g_sched;

#endif
