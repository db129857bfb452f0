/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/test.h - the scenario library, after kvm-unit-tests: a scenario is
 * a table entry; report() records the file and line of a failed check; the
 * result goes to minhv by HC_REPORT, which prints it as KTAP. */
#ifndef MINHV_GUEST_TEST_H
#define MINHV_GUEST_TEST_H

#include "lib/types.h"
#include "include/minhv/guest_layout.h"

#define SCN_MANUAL (1u << 0) /* not in the default suite: name it to run it */

struct scenario {
	const char *name;
	const char *group;
	/* NULL when it can run here, else why not (a SKIP, never a FAIL). */
	const char *(*supported)(void);
	void (*body)(void);
	unsigned int flags; /* SCN_* */
};

/* guest/scenarios/list.c: every scenario, in run order. */
extern const struct scenario *const scenario_list[];
extern const unsigned int scenario_count;

/* One check. Safe from any vCPU. Returns cond. */
#define report(cond, ...) report_at(__FILE__, __LINE__, !!(cond), __VA_ARGS__)
bool report_at(const char *file, int line, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Part of the scenario cannot run here: if nothing else is checked, the
 * result is SKIP with this reason; otherwise it is noted in the diag. */
void report_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line of context on the console, prefixed with the scenario's name. */
void report_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Does pattern select this scenario? Patterns are separated by ',' or
 * spaces; each is a glob (* and ?) matched against the name or the group.
 * "" selects every scenario without SCN_MANUAL. */
bool scenario_selected(const struct scenario *s, const char *patterns);

/* Run what boot_info->tests selects, report each, return the failures. */
unsigned int run_scenarios(const char *patterns);

#endif
