// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/park_check.c - KTAP boot checks for parking, run on the boot CPU after
 * SMP bring-up while every AP without a vCPU sits in park_cpu_loop():
 * parked at boot, park/wake cycles counted, cross-calls and posted work. */
#include "hv/selftest/selftest.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/ktap.h"
#include "hv/park/park.h"
#include "hv/percpu.h"
#include "hv/park/spec_ctrl.h"

#define WAIT_TSC (4ULL << 30) /* about a second or two; TCG is slow */

struct probe {
	volatile u32 ran;
	u32 cpu;
	bool parked, lowered;
	u64 spec;
};

static void probe_fn(void *arg)
{
	struct probe *x = arg;
	u32 me = ipi_this_cpu();

	x->cpu = me;
	x->parked = park_is_parked(me);
	x->lowered = park_spec_lowered(me);
	/* Only where the policy writes it: TCG has no SPEC_CTRL to read. */
	if (g_spec_policy.park_lowers)
		x->spec = rdmsr(MSR_SPEC_CTRL);
	__atomic_store_n(&x->ran, 1, __ATOMIC_RELEASE);
}

static bool wait_ran(struct probe *x)
{
	u64 t0 = rdtsc();

	while (!__atomic_load_n(&x->ran, __ATOMIC_ACQUIRE)) {
		if (rdtsc() - t0 > WAIT_TSC)
			return false;
		cpu_relax();
	}
	return true;
}

static u32 boot_parked(u32 self, u32 *target)
{
	u32 n = 0, parked = 0;

	*target = self;
	for (u32 c = 0; c < park_ncpus(); c++) {
		if (c == self || !g_percpu[c] || !g_percpu[c]->online)
			continue;
		n++;
		if (park_wait_parked(c, 0, WAIT_TSC)) {
			parked++;
			if (*target == self)
				*target = c;
		}
	}
	if (n)
		ktap_ok("park.boot_aps_parked", parked == n,
			"%u of %u APs without a vCPU are parked", parked, n);
	return n;
}

static void cross_call(u32 t)
{
	struct park_stats b, a;
	struct probe x = { 0 };
	int rc;

	park_get_stats(t, &b);
	rc = ipi_call_on(t, probe_fn, &x, true);
	ktap_ok("park.cross_call_while_parked",
		rc == 0 && wait_ran(&x) && x.parked && !x.lowered,
		"cpu%u: rc %d ran %u parked %d lowered %d", t, rc, x.ran,
		x.parked, x.lowered);
	ktap_ok("park.back_to_parked_after_cross_call",
		park_wait_parked(t, b.sleeps, WAIT_TSC),
		"cpu%u did not park again", t);
	park_get_stats(t, &a);
	if (!g_spec_policy.park_lowers) {
		ktap_skip("park.spec_ctrl_base_in_cross_call", "%s",
			  g_spec_policy.park_why);
		ktap_skip("park.spec_ctrl_lowered_again", "%s",
			  g_spec_policy.park_why);
		ktap_ok("park.no_spec_ctrl_write", a.spec_writes == 0,
			"cpu%u: %llu SPEC_CTRL writes", t,
			(unsigned long long)a.spec_writes);
		return;
	}
	ktap_ok("park.spec_ctrl_base_in_cross_call",
		x.spec == g_percpu[t]->spec_ctrl_base,
		"cpu%u ran the call with SPEC_CTRL %#llx, base %#llx", t,
		(unsigned long long)x.spec,
		(unsigned long long)g_percpu[t]->spec_ctrl_base);
	ktap_ok("park.spec_ctrl_lowered_again",
		park_spec_lowered(t) && a.spec_writes >= b.spec_writes + 2,
		"cpu%u: lowered %u, SPEC_CTRL writes %llu -> %llu", t,
		park_spec_lowered(t), (unsigned long long)b.spec_writes,
		(unsigned long long)a.spec_writes);
}

void park_boot_checks(void)
{
	u32 self = ipi_this_cpu(), t;
	struct park_stats b;
	struct probe y = { 0 };

	if (!boot_parked(self, &t)) {
		ktap_skip("park.boot_aps_parked", "one CPU: no AP to park");
		return;
	}
	if (t == self)
		return; /* the failure above says why */
	park_get_stats(t, &b);
	park_wake(t); /* nothing to do: wakes, parks again */
	ktap_ok("park.wake_cycle_counted",
		park_wait_parked(t, b.sleeps, WAIT_TSC),
		"cpu%u: park/wake cycles stayed at %llu", t,
		(unsigned long long)b.sleeps);
	cross_call(t);
	park_get_stats(t, &b);
	ktap_ok("park.posted_work_runs",
		park_post(t, probe_fn, &y) == 0 && wait_ran(&y) && !y.parked &&
			park_wait_parked(t, b.sleeps, WAIT_TSC),
		"cpu%u: ran %u parked while running %d", t, y.ran, y.parked);
	park_print_summary();
}
