/* hv/ktap.h - KTAP v1 results (the Linux kselftest/KUnit format).
 * Results are collected during the run and printed as one block at the end:
 * version line, plan, one line per result, then a totals line. */
#ifndef MINHV_HV_KTAP_H
#define MINHV_HV_KTAP_H

#include "arch/types.h"

#define KTAP_NAME_LEN 64
#define KTAP_DIAG_LEN 160
/* Results a run can hold; the largest configuration records fewer. A result
 * beyond this is reported as lost on the console and not counted. */
#define KTAP_MAX_RESULTS 576

/* Record a result; the format gives a diagnostic printed on failure.
 * Returns cond so callers can chain. */
bool ktap_ok(const char *name, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record a skip with its reason (a missing feature, never a failure). */
void ktap_skip(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print everything; returns the number of failures. */
u32 ktap_finish(void);
u32 ktap_count(void);
u32 ktap_failures(void);
void ktap_reset(void); /* unit tests */

#endif
