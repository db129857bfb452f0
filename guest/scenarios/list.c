// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/list.c - every scenario, in the order they run. */
#include "guest/scenarios/scenarios.h"

const struct scenario *const scenario_list[] = {
	&scn_hello,
	&scn_cpuid,
	&scn_hypercalls,
	&scn_smp,
	&scn_msr,
	&scn_io,
	&scn_pause,
	&scn_vcpu_online,
	&scn_hlt_wake,
	&scn_bench,
	&scn_hostile_svm,
	&scn_hostile_storm,
	&scn_hostile_read,
	&scn_hostile_write,
	&scn_hostile_triple_fault,
	&scn_hostile_cli_loop,
	&scn_hostile_invd,
	&scn_hostile_ac_loop,
	&scn_hostile_report_flood,
	&scn_hostile_ctrl_chars,
	&scn_hostile_forge,
	&scn_hostile_vcpu_race,
	&scn_hostile_cpuid_loop,
	&scn_hostile_gp_loop,
	&scn_hostile_console_flood,
	&scn_hostile_rep_outsb,
	&scn_hostile_cr0_nw,
	&scn_hostile_xstate_dirty,
	&scn_hostile_xstate,
	&scn_hostile_debugregs,
	&scn_hostile_xsetbv_bad,
};
const unsigned int scenario_count = ARRAY_SIZE(scenario_list);
