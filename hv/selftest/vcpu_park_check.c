// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/vcpu_park_check.c - after a guest ran: did CPUs whose vCPU was offline
 * or halted park (hv/park/park.h) rather than spin, and was SPEC_CTRL back at
 * the base on every wake? Hypervisor-side KTAP checks; docs/PARKING.md. */
#include "hv/selftest/selftest.h"
#include "hv/guest/guest.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "hv/park/park.h"
#include "hv/park/spec_ctrl.h"

/* Parks on all of g's CPUs together: with vCPUs sharing CPUs (and moving
 * between them) a vCPU's waits are parks of whichever CPU it was on. */
static u64 cpus_parks_before;

static u64 cpus_parks(const struct guest *g)
{
	u64 n = 0;

	for (int c = cpuset_next(&g->cpus, 0); c >= 0;
	     c = cpuset_next(&g->cpus, (u32)c + 1)) {
		struct park_stats s;

		park_get_stats((u32)c, &s);
		n += s.parks;
	}
	return n;
}

/* One vCPU per CPU: vCPU n is the only one on CPU n. */
static bool one_per_cpu(const struct guest *g)
{
	return g->nr_vcpus <= g->ncpus;
}

void vcpu_park_snapshot(struct guest *g)
{
	for (u32 i = 0; i < g->nr_vcpus && one_per_cpu(g); i++) {
		struct park_stats s;

		park_get_stats(vcpu_home_cpu(g->vcpus[i]), &s);
		g->vcpus[i]->stats.parks_before = s.parks;
	}
	cpus_parks_before = cpus_parks(g);
}

void vcpu_park_checks(const struct guest *g)
{
	u64 offlines = 0, waits = 0, all_waits = 0, bad = 0;
	bool stats_ok = true;

	for (u32 i = 0; i < g->nr_vcpus; i++) {
		const struct vcpu *v = g->vcpus[i];
		u32 cpu = vcpu_home_cpu(v);
		struct park_stats s;
		u64 d;

		park_get_stats(cpu, &s);
		d = s.parks - v->stats.parks_before;
		if (v->stats.offlines || v->stats.halt_waits)
			pr_info("svm: vCPU %u: offline %llu times, CPU parked %llu times while offline, %llu while halted (cpu%u parks +%llu)\n",
				v->id, (unsigned long long)v->stats.offlines,
				(unsigned long long)v->stats.offline_waits,
				(unsigned long long)v->stats.halt_waits, cpu,
				(unsigned long long)d);
		offlines += v->stats.offlines;
		waits += v->stats.offline_waits;
		all_waits += v->stats.offline_waits + v->stats.halt_waits;
		bad += v->stats.wake_spec_bad;
		/* Every wait went through park_until(), which counts. */
		if (one_per_cpu(g) &&
		    d < v->stats.offline_waits + v->stats.halt_waits)
			stats_ok = false;
	}
	/* Shared CPUs: the waits of all vCPUs, the parks of all CPUs. */
	if (!one_per_cpu(g) && cpus_parks(g) - cpus_parks_before < all_waits)
		stats_ok = false;
	if (!park_ready()) {
		ktap_skip("park.vcpu_offline_parked", "parking is not armed");
		return;
	}
	if (!offlines)
		ktap_skip("park.vcpu_offline_parked",
			  "the guest took no vCPU offline");
	else /* sharing CPUs, an offline vCPU may only ever block */
		ktap_ok("park.vcpu_offline_parked",
			(waits > 0 || !one_per_cpu(g)) && stats_ok,
			"%llu offline transitions, %llu parks while offline, park stats %s",
			(unsigned long long)offlines, (unsigned long long)waits,
			stats_ok ? "agree" : "count fewer parks");
	if (!g_spec_policy.park_lowers)
		ktap_skip("park.vcpu_wake_spec_ctrl_base", "%s",
			  g_spec_policy.park_why);
	else
		ktap_ok("park.vcpu_wake_spec_ctrl_base", bad == 0,
			"%llu wakes found SPEC_CTRL not at the base",
			(unsigned long long)bad);
}
