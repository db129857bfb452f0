// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/park_mtrr_check.c - parking x MTRR cross-subsystem check: parked CPUs are
 * woken by the MTRR rendezvous' cross-call, run the lock-step procedure,
 * and go back to parked (with SPEC_CTRL lowered again where the policy
 * lowers it). Runs on the boot CPU after park_boot_checks() (ST_AFTER_PARK). */
#include "hv/features.h"
#include "hv/smp/ipi.h"
#include "hv/ktap.h"
#include "hv/mtrr/mtrr.h"
#include "hv/park/park.h"
#include "hv/selftest/selftest.h"

#define WAIT_TSC (4ULL << 30) /* generous: TCG on a loaded host is slow */

static bool all_parked_again(u32 n, const struct park_stats *before)
{
	for (u32 cpu = 1; cpu < n; cpu++)
		if (!park_wait_parked(cpu, before[cpu].sleeps, WAIT_TSC))
			return false;
	return true;
}

void park_mtrr_check(void)
{
	static struct park_stats before[64];
	u32 n = ipi_online_count();
	struct mtrr_stats st;
	int rc;

	if (!g_features.mtrr) {
		ktap_skip("park.mtrr_rendezvous", "CPUID.1:EDX[12]: no MTRRs");
		return;
	}
	if (n < 2) {
		ktap_skip("park.mtrr_rendezvous", "one CPU: nothing is parked");
		return;
	}
	if (n > ARRAY_SIZE(before))
		n = ARRAY_SIZE(before); /* check the first 64; all take part */
	for (u32 cpu = 1; cpu < n; cpu++)
		park_get_stats(cpu, &before[cpu]);
	rc = mtrr_sync_all(mtrr_current(), &st);
	ktap_ok("park.mtrr_rendezvous",
		rc == 0 && st.cpus == ipi_online_count() &&
			st.mismatch_cpus == 0,
		"rc %d: %u of %u CPUs ran the rendezvous, %u mismatch", rc,
		st.cpus, ipi_online_count(), st.mismatch_cpus);
	ktap_ok("park.parked_after_mtrr", all_parked_again(n, before),
		"a CPU did not return to parked after the MTRR rendezvous");
}
