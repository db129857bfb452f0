// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/vcpu_online.c - HC_VCPU_OFFLINE/ONLINE from another
 * vCPU, many times: a spinning vCPU makes no progress while offline (its
 * CPU is parked, checked hypervisor-side) and resumes when onlined. */
#include "guest/atomic.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"

#define ROUNDS 50
#define QUIET_TSC 2000000ULL /* offline is synchronous: any wait proves it */

static volatile unsigned long long ticks, stop;

static void spin(void *unused)
{
	(void)unused;
	while (!atomic_read(&stop))
		atomic_inc(&ticks);
}

static void pause_tsc(unsigned long long n)
{
	unsigned long long t0 = rdtsc();

	while (rdtsc() - t0 < n)
		;
}

/* Progress, not a fixed delay: a loaded host may not schedule vCPU 1's
 * thread for a while; VCPU_WAIT_TSC only bounds a real hang. */
static bool ticks_pass(unsigned long long v)
{
	unsigned long long t0 = rdtsc();

	while (atomic_read(&ticks) <= v)
		if (rdtsc() - t0 > VCPU_WAIT_TSC)
			return false;
	return true;
}

static const char *need_two(void)
{
	return smp_nr() < 2 ? "needs at least 2 vCPUs" : NULL;
}

static bool one_round(int i)
{
	unsigned long long a, b;
	long r;

	r = hc_vcpu_offline(1);
	if (!report(r == 0, "round %d: HC_VCPU_OFFLINE(1): %s", i,
		    hc_errname(r)))
		return false;
	a = atomic_read(&ticks);
	pause_tsc(QUIET_TSC);
	b = atomic_read(&ticks);
	if (!report(a == b,
		    "round %d: offline vCPU 1 made no progress (%llu -> %llu)",
		    i, a, b))
		return false;
	if (i == 0) {
		r = hc_vcpu_offline(1);
		report(r == 0 || r == -HC_EBUSY, "offline twice: %s",
		       hc_errname(r));
	}
	r = hc_vcpu_online(1);
	if (!report(r == 0, "round %d: HC_VCPU_ONLINE(1): %s", i,
		    hc_errname(r)))
		return false;
	return report(ticks_pass(b),
		      "round %d: online vCPU 1 runs again (%llu -> %llu)", i, b,
		      atomic_read(&ticks));
}

static void online_body(void)
{
	int i;

	ticks = stop = 0;
	if (!report(vcpu_run(1, spin, NULL) == 0, "vCPU 1 started"))
		return;
	if (report(ticks_pass(0), "vCPU 1 is spinning"))
		for (i = 0; i < ROUNDS && one_round(i); i++)
			;
	atomic_set(&stop, 1);
	report(vcpu_wait(1), "vCPU 1 finished");
}

const struct scenario scn_vcpu_online = { "vcpu_online", "smp", need_two,
					  online_body, 0 };
