// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/rmpopt_pass.c - the RMPOPT pass over a list of 1 GiB regions. Leader
 * schedule (upstream v2): this CPU verifies every region first, then one
 * thread of every other core verifies it and hits the cached scan. One
 * cross-call per region, so no CPU has interrupts off for the whole pass. */
#include "hv/snp/rmpopt.h"
#include "arch/cpu.h"
#include "hv/smp/ipi.h"
#include "hv/snp/rmp.h"
#include "hv/snp/rmpopt_stats.h"
#include "hv/snp/rmpopt_topo.h"

struct pass_arg {
	u64 region;
	u32 skip_core; /* the leader's core, already done */
	bool skip;
	enum rmpopt_role role;
};

static void core_fn(void *p)
{
	const struct pass_arg *a = p;
	u32 me = ipi_this_cpu();

	if (!rmpopt_is_issuer(me) ||
	    (a->skip && rmpopt_core_of(me) == a->skip_core))
		return;
	rmpopt_issue(hpa(a->region), RMPOPT_VERIFY, a->role);
}

void rmpopt_pass(const u64 *regions, u32 n, enum rmpopt_mode sched)
{
	u32 leader = ipi_this_cpu();
	struct pass_arg a = { .skip_core = rmpopt_core_of(leader) };
	u64 t0 = rdtsc();

	rmpopt_stats_begin();
	if (sched == RMPOPT_MODE_LEADER) {
		/* Leader: scan each region alone, nothing else running RMPOPT. */
		for (u32 i = 0; i < n; i++)
			rmpopt_issue(hpa(regions[i]), RMPOPT_VERIFY,
				     RMPOPT_ROLE_LEADER);
		a.skip = true;
	}
	a.role = RMPOPT_ROLE_CORES;
	for (u32 i = 0; i < n; i++) {
		a.region = regions[i];
		ipi_call_all(core_fn, &a, true, true);
	}
	rmpopt_stats_end(sched == RMPOPT_MODE_LEADER ? "leader-then-cores" :
						       "all-cores-at-once",
			 n, rdtsc() - t0);
}

struct report_arg {
	u64 region;
	u32 optimized;
};

static void report_fn(void *p)
{
	struct report_arg *a = p;

	rmpopt_ensure_base();
	if (g_rmp->opt(hpa(a->region), RMPOPT_REPORT))
		__atomic_add_fetch(&a->optimized, 1, __ATOMIC_RELAXED);
}

u32 rmpopt_report_all(hpa_t region, u32 *ncpus)
{
	struct report_arg a = { .region = region.v };
	int n = ipi_call_all(report_fn, &a, true, true);

	if (ncpus)
		*ncpus = n > 0 ? (u32)n : 0;
	return a.optimized;
}
