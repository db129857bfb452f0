// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_storm.c - thousands of hypercalls with random
 * numbers and arguments from a fixed seed: every result is a documented
 * one and the guest lives on. Calls that end or park the guest are left
 * out; those that could start vCPUs or report only get wild pointers. */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"

#define STORM_CALLS 5000
#define STORM_SEED 0x6d696e6876ULL

static u64 rng = STORM_SEED;

static u64 next(void) /* xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* An argument: often a boundary value, otherwise anything. */
static u64 arg(bool safe_only)
{
	const u64 mem = boot_info->mem_size;
	/* No small values: as a pointer they would hit the guest itself. */
	const u64 edge[] = { 0, mem, mem - 1, mem + 4096, 1ULL << 63, ~0ULL };
	u64 r = next();

	if (!safe_only && (r & 3) == 0)
		return edge[(r >> 2) % ARRAY_SIZE(edge)];
	return next() | 1ULL << 62; /* never inside guest memory */
}

static bool documented(long r)
{
	return r >= 0 || r == -HC_EPERM || r == -HC_ENOENT || r == -HC_E2BIG ||
	       r == -HC_EFAULT || r == -HC_EBUSY || r == -HC_EINVAL ||
	       r == -HC_ENOSYS;
}

static void storm_body(void)
{
	unsigned int odd = 0, i;
	long r;

	for (i = 0; i < STORM_CALLS; i++) {
		u64 nr = next() & 1 ? next() % (HC_NR + 4) : next();
		bool wild = nr == HC_VCPU_START || nr == HC_VCPU_ONLINE ||
			    nr == HC_REPORT;

		if (nr == HC_EXIT || nr == HC_VCPU_OFFLINE ||
		    nr == HC_TEST_PLAN)
			continue;
		r = hypercall(nr, arg(wild), arg(wild), arg(wild), arg(wild),
			      arg(wild));
		if (!documented(r) && odd++ < 5)
			printf("hostile_storm: call %u: nr %#llx returned %ld\n",
			       i, (unsigned long long)nr, r);
	}
	report(odd == 0, "%u of %u results were not documented codes", odd,
	       STORM_CALLS);
	report(hypercall(HC_VCPU_INFO, 0, 0, 0, 0, 0) >= 0,
	       "the hypervisor still answers after the storm");
}

const struct scenario scn_hostile_storm = { "hostile_storm", "hostile", NULL,
					    storm_body, SCN_MANUAL };
