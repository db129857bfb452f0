/* guest/scenarios/list.c - every scenario, in the order they run. */
#include "guest/scenarios/scenarios.h"

const struct scenario *const scenario_list[] = {
	&scn_hello, &scn_cpuid, &scn_hypercalls, &scn_smp, &scn_msr, &scn_io,
};
const unsigned int scenario_count = ARRAY_SIZE(scenario_list);
