/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/ktap_internal.h - the KTAP tally, private to hv/ktap.c and the unit
 * tests (which start each test from an empty one, tests/doubles). */
#ifndef MINHV_HV_KTAP_INTERNAL_H
#define MINHV_HV_KTAP_INTERNAL_H

#include "arch/types.h"

struct ktap_tally {
	u32 count; /* results recorded: results[0..count-1] */
	u32 failures, skips; /* of those */
	u32 lost; /* results that found no room */
};
extern struct ktap_tally g_ktap;

#endif
