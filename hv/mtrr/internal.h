/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/mtrr/internal.h - the MTRR module's state, private to hv/mtrr/ and
 * the unit tests (which reset it and shorten the rendezvous timeout,
 * tests/doubles). */
#ifndef MINHV_HV_MTRR_INTERNAL_H
#define MINHV_HV_MTRR_INTERNAL_H

#include "hv/mtrr/mtrr.h"

struct mtrr_module {
	struct mtrr_state cur; /* what every CPU was programmed with */
	bool cur_valid;
	enum tristate flush_opt; /* mtrr_flush= */
	struct mtrr_stats last; /* the last rendezvous */
	bool snp_locked;
};
extern struct mtrr_module g_mtrr; /* mtrr.c */
/* Cycles a CPU waits at the entry or exit barrier before giving up
 * (sync.c). */
extern u64 g_mtrr_barrier_timeout;

#endif
