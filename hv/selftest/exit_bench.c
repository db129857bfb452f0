// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/exit_bench.c - bench=1: one "bench: svm.exit_path" line per
 * vCPU after a guest stopped (tools/bench.sh parses them): the TSC from
 * #VMEXIT to the next VMRUN, as hv/svm/vcpu_run.c measured it. */
#include "hv/selftest/selftest.h"
#include "hv/guest/guest.h"
#include "hv/log.h"

void bench_print_exit_paths(const struct guest *g)
{
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		const struct vcpu *v = g->vcpus[i];

		if (!v->stats.path_n)
			continue;
		/* Under -icount the TSC counts instructions. */
		kprintf("bench: svm.exit_path vcpu=%u n=%llu min=%llu avg=%llu max=%llu tsc\n",
			v->id, (unsigned long long)v->stats.path_n,
			(unsigned long long)v->stats.path_min,
			(unsigned long long)(v->stats.path_sum /
					     v->stats.path_n),
			(unsigned long long)v->stats.path_max);
	}
}
