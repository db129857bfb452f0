// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_ac_loop.c - CVE-2015-5307: an #AC whose delivery
 * raises #AC again loops inside the CPU unless #AC is intercepted. The loop
 * needs CPL 3 (alignment checks apply only there, SDM vol 3 6.15 #AC and
 * APM vol 2 8.2.18), which this guest does not have: SKIP, and the unit
 * test (tests/unit/test_exits_hw.c) checks the intercept and reflection. */
#include "guest/scenarios/scenarios.h"

static const char *ac_loop_supported(void)
{
	return "needs a CPL 3 environment in the guest (#AC is raised only at CPL 3); the #AC intercept is unit-tested";
}

static void ac_loop_body(void)
{
}

const struct scenario scn_hostile_ac_loop = { "hostile_ac_loop", "hostile",
					      ac_loop_supported, ac_loop_body,
					      SCN_MANUAL };
