/* guest/scenarios/scenarios.h - one struct scenario per file in this
 * directory; list.c orders them. */
#ifndef MINHV_GUEST_SCENARIOS_H
#define MINHV_GUEST_SCENARIOS_H

#include "guest/test.h"

extern const struct scenario scn_hello, scn_cpuid, scn_hypercalls, scn_smp,
	scn_msr, scn_io;

#endif
