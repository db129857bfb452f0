/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/park/internal.h - per-CPU parking state, shared by hv/park/ only. */
#ifndef MINHV_HV_PARK_INTERNAL_H
#define MINHV_HV_PARK_INTERNAL_H

#include "hv/park/park.h"

struct park_cpu {
	/* MONITORed: park_wake() stores here. Alone on its line, so this
	 * CPU's own stores below do not end its MWAIT early. */
	volatile u32 kick;
	u8 kick_line[60];
	volatile u32 parked; /* inside park_until() */
	volatile u32 lowered; /* SPEC_CTRL holds the park value */
	volatile u32 reason; /* enum park_reason */
	volatile u32 claimed, posted; /* park_post() hand-off */
	ipi_fn work_fn;
	void *work_arg;
	struct park_stats st;
} __attribute__((aligned(64)));

extern struct park_cpu *g_park_cpus;
extern u32 g_park_ncpus;
extern bool g_park_mwait; /* parked CPUs wait in MWAIT, not HLT */
extern bool g_park_armed; /* park_init() ran: park_ready() */

static inline void park_inc(u64 *c)
{
	/* Also bumped from NMI context on the same CPU: one locked add. */
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

#endif
