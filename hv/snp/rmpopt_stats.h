/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/rmpopt_stats.h - RMPOPT cycle statistics per pass, like the upstream
 * measurements: per-RMPOPT min/avg/max, total cycles, regions optimized
 * per CPU. Each CPU writes only its own slot. */
#ifndef MINHV_HV_SNP_RMPOPT_STATS_H
#define MINHV_HV_SNP_RMPOPT_STATS_H

#include "hv/snp/rmpopt.h"

struct rmpopt_cycles {
	u64 count, sum, min, max;
};

struct rmpopt_summary {
	const char *sched;
	u32 regions;
	u64 total_cycles; /* the whole pass, on the CPU that ran it */
	struct rmpopt_cycles all, role[RMPOPT_NROLES];
	u32 ncpus;
	u32 *optimized; /* [ncpus] regions optimized by each CPU's RMPOPTs */
};

int rmpopt_stats_init(u32 ncpus);
void rmpopt_stats_begin(void);
void rmpopt_stats_record(u32 cpu, enum rmpopt_role role, u64 cycles,
			 bool optimized);
/* Sum the per-CPU slots into the last summary and print it. */
const struct rmpopt_summary *rmpopt_stats_end(const char *sched, u32 regions,
					      u64 total_cycles);
const struct rmpopt_summary *rmpopt_stats_last(void);
u64 rmpopt_cycles_avg(const struct rmpopt_cycles *c);
/* Passes run since boot. */
u32 rmpopt_stats_passes(void);

#endif
