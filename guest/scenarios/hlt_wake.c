// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hlt_wake.c - HLT wake-up between vCPUs: vCPU 1 executes
 * HLT with interrupts on (its CPU parks, PARK_VCPU_HALTED), vCPU 0 wakes it
 * with HC_VCPU_ONLINE (docs/HYPERCALLS.md) and it continues after the HLT. */
#include "guest/atomic.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"

#define ROUNDS 10

static volatile unsigned long long halting, woke;

static void sleeper(void *unused)
{
	(void)unused;
	atomic_set(&halting, 1);
	/* STI's shadow covers HLT; nothing is injected, so only another
	 * vCPU's hypercall ends the HLT. */
	__asm__ volatile("sti; hlt; cli" ::: "memory");
	atomic_set(&woke, 1);
}

static bool wait_for(volatile unsigned long long *p)
{
	unsigned long long t0 = rdtsc();

	while (!atomic_read(p))
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
	unsigned long long t0;
	long r;

	halting = woke = 0;
	if (!report(vcpu_run(1, sleeper, NULL) == 0, "round %d: vCPU 1 started",
		    i) ||
	    !report(wait_for(&halting), "round %d: vCPU 1 reached HLT", i))
		return false;
	/* -HC_EBUSY until the HLT exit made it HALTED: then 0. */
	t0 = rdtsc();
	do
		r = hc_vcpu_online(1);
	while (r == -HC_EBUSY && rdtsc() - t0 < VCPU_WAIT_TSC);
	if (!report(r == 0, "round %d: HC_VCPU_ONLINE(halted vCPU 1): %s", i,
		    hc_errname(r)))
		return false;
	return report(wait_for(&woke), "round %d: vCPU 1 woke after HLT", i) &&
	       report(vcpu_wait(1), "round %d: vCPU 1 finished", i);
}

static void hlt_body(void)
{
	for (int i = 0; i < ROUNDS && one_round(i); i++)
		;
}

const struct scenario scn_hlt_wake = { "hlt_wake", "smp", need_two, hlt_body,
				       0 };
