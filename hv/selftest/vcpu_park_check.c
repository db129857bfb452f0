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

void vcpu_park_snapshot(struct guest *g)
{
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		struct park_stats s;

		park_get_stats(g->vcpus[i]->id, &s);
		g->vcpus[i]->stats.parks_before = s.parks;
	}
}

void vcpu_park_checks(const struct guest *g)
{
	u64 offlines = 0, waits = 0, bad = 0;
	bool stats_ok = true;

	for (u32 i = 0; i < g->nr_vcpus; i++) {
		const struct vcpu *v = g->vcpus[i];
		struct park_stats s;
		u64 d;

		park_get_stats(v->id, &s);
		d = s.parks - v->stats.parks_before;
		if (v->stats.offlines || v->stats.halt_waits)
			pr_info("svm: vCPU %u: offline %llu times, CPU parked %llu times while offline, %llu while halted (cpu%u parks +%llu)\n",
				v->id, (unsigned long long)v->stats.offlines,
				(unsigned long long)v->stats.offline_waits,
				(unsigned long long)v->stats.halt_waits, v->id,
				(unsigned long long)d);
		offlines += v->stats.offlines;
		waits += v->stats.offline_waits;
		bad += v->stats.wake_spec_bad;
		/* Every wait went through park_until(), which counts. */
		if (d < v->stats.offline_waits + v->stats.halt_waits)
			stats_ok = false;
	}
	if (!park_ready()) {
		ktap_skip("park.vcpu_offline_parked", "parking is not armed");
		return;
	}
	if (!offlines)
		ktap_skip("park.vcpu_offline_parked",
			  "the guest took no vCPU offline");
	else
		ktap_ok("park.vcpu_offline_parked", waits > 0 && stats_ok,
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
