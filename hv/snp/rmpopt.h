/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/rmpopt.h - RMPOPT after SEV-SNP teardown (AMD pub. 69201): per-core
 * RMPOPT_BASE, the pending-regions set that batches teardowns, the pass
 * (leader CPU first, then one thread of every other core) and its
 * statistics. */
#ifndef MINHV_HV_SNP_RMPOPT_H
#define MINHV_HV_SNP_RMPOPT_H

#include "arch/rmp.h"

/* How a pass is scheduled. Same order as enum rmpopt_sched in options. */
enum rmpopt_mode {
	RMPOPT_MODE_LEADER, /* one CPU scans every region, then the cores */
	RMPOPT_MODE_ALL, /* every core at once (upstream v1) */
	RMPOPT_MODE_BOTH, /* model: ALL, forget, then LEADER; compare */
};

enum rmpopt_role { RMPOPT_ROLE_LEADER, RMPOPT_ROLE_CORES, RMPOPT_NROLES };

/* After rmpopt_topo_init() and the back end: remember base (aligned down
 * to 1 GiB) and mode, allocate per-core and per-CPU state, then program
 * RMPOPT_BASE on every core now. Returns 0 or -ENOMEM. */
int rmpopt_init(hpa_t base, enum rmpopt_mode mode);
enum rmpopt_mode rmpopt_mode(void);
/* Per-core hook: program this core's RMPOPT_BASE unless already done. Runs
 * before every RMPOPT; call it too when a CPU comes back from parking. */
void rmpopt_ensure_base(void);
/* The core of cpu lost its RMPOPT_BASE (powered down): program it again
 * before its next RMPOPT. */
void rmpopt_core_lost(u32 cpu);
/* One timed RMPOPT on the calling CPU (after rmpopt_ensure_base()),
 * recorded in the statistics under role. Returns CF. */
bool rmpopt_issue(hpa_t region, u64 func, enum rmpopt_role role);

/* Pending set: mark every 1 GiB region overlapping [spa, spa + size).
 * Regions outside the 2 TiB from the base are not covered by RMPOPT and
 * are counted instead; returns how many regions were left out. */
u32 rmpopt_pending_add(hpa_t spa, u64 size);
u32 rmpopt_pending_count(void);
/* Planning: the region addresses set in a 2 TiB bitmap, ascending. */
u32 rmpopt_plan(const u64 *bitmap, hpa_t base, u64 *out, u32 max);
/* Run one pass over every pending region (and clear the set), scheduled by
 * the mode; prints the statistics. Returns the number of regions. */
u32 rmpopt_flush(void);
/* One pass over regions[0..n) with the given schedule (not BOTH). */
void rmpopt_pass(const u64 *regions, u32 n, enum rmpopt_mode sched);
/* How many CPUs report region optimized (RMPOPT report-only on every
 * online CPU); *ncpus gets the number that answered. */
u32 rmpopt_report_all(hpa_t region, u32 *ncpus);

#endif
