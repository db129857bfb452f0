/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/scenarios/scenarios.h - one struct scenario per file in this
 * directory; list.c orders them. */
#ifndef MINHV_GUEST_SCENARIOS_SCENARIOS_H
#define MINHV_GUEST_SCENARIOS_SCENARIOS_H

#include "guest/test.h"

extern const struct scenario scn_hello, scn_cpuid, scn_hypercalls, scn_smp,
	scn_msr, scn_io, scn_pause, scn_vcpu_online, scn_hlt_wake;
extern const struct scenario scn_bench; /* guest/scenarios/bench.c */
/* SCN_MANUAL, group "sched": vCPUs sharing CPUs (guest/scenarios/sched.c). */
extern const struct scenario scn_sched_spinlock, scn_sched_hog;
/* SCN_MANUAL, group "hostile": each runs in a guest of its own. */
extern const struct scenario scn_hostile_read, scn_hostile_write,
	scn_hostile_svm, scn_hostile_triple_fault, scn_hostile_cli_loop,
	scn_hostile_storm, scn_hostile_report_flood, scn_hostile_ctrl_chars,
	scn_hostile_forge, scn_hostile_vcpu_race;
/* Hardware hardening (each in a guest of its own, like the above). */
extern const struct scenario scn_hostile_invd, scn_hostile_ac_loop;
/* Runaway guests, string I/O, illegal CR0 (hv limits and checks). */
extern const struct scenario scn_hostile_cpuid_loop, scn_hostile_gp_loop,
	scn_hostile_console_flood, scn_hostile_rep_outsb, scn_hostile_cr0_nw;
/* State that must not cross guests, XSETBV checks (hostile_xstate.c,
 * hostile_xsetbv.c); hostile_xstate_dirty runs first and leaves markers. */
extern const struct scenario scn_hostile_xstate_dirty, scn_hostile_xstate,
	scn_hostile_debugregs, scn_hostile_xsetbv_bad;

#endif
