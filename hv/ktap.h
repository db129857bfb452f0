/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/ktap.h - KTAP v1 results (the Linux kselftest/KUnit format).
 * Results are collected during the run and printed as one block at the end:
 * version line, plan, one line per result, then a totals line. */
#ifndef MINHV_HV_KTAP_H
#define MINHV_HV_KTAP_H

#include "arch/types.h"

#define KTAP_NAME_LEN 64
#define KTAP_DIAG_LEN 160
/* Result storage, and the part of it guests can never take: the
 * hypervisor's own checks always have room after any guest. */
#define KTAP_CAPACITY 576
#define KTAP_HV_RESERVE 128

/* Record a result; the format gives a diagnostic printed on failure.
 * Returns cond so callers can chain. */
bool ktap_ok(const char *name, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record a skip with its reason (a missing feature, never a failure). */
void ktap_skip(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A result sent by a guest: stored only while the guests' share of the
 * storage (KTAP_CAPACITY - KTAP_HV_RESERVE) has room. Returns false when
 * it was dropped (counted as lost: the run fails). */
bool ktap_guest_ok(const char *name, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool ktap_guest_skip(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print everything; returns the number of failures, plus one when any
 * result was lost (then printed as a failed ktap.results_lost). */
u32 ktap_finish(void);
u32 ktap_count(void);
u32 ktap_failures(void);
u32 ktap_lost(void); /* results that found no room */

#endif
