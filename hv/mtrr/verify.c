// SPDX-License-Identifier: GPL-2.0-only
/* hv/mtrr/verify.c - with the MTRRs locked (SYSCFG.SNP_EN set by
 * firmware, APM vol 2 15.36: the fixed MTRRs and SYSCFG are read-only),
 * check that every CPU holds the boot CPU's instead of programming them.
 * Once, at boot: built for size. */
#include "arch/errno.h"
#include "hv/log.h"
#include "hv/mtrr/mtrr.h"
#include "hv/smp/ipi.h"
#include "lib/string.h"

struct verify {
	const struct mtrr_state *s;
	struct mtrr_stats *st;
};

/* Each CPU: compare, naming every MSR that differs (MTRR_CMP_REPORT). */
static void verify_one(void *arg)
{
	struct verify *c = arg;
	u32 bad = mtrr_compare(c->s, ipi_this_cpu(), MTRR_CMP_REPORT);

	__atomic_fetch_add(&c->st->cpus, 1, __ATOMIC_RELAXED);
	if (bad) {
		__atomic_fetch_add(&c->st->mismatch_cpus, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&c->st->mismatch_msrs, bad,
				   __ATOMIC_RELAXED);
	}
}

int mtrr_verify_all(const struct mtrr_state *s, struct mtrr_stats *out)
{
	struct mtrr_stats st;
	struct verify c = { s, &st };
	int n;

	memset(&st, 0, sizeof(st));
	st.seq = mtrr_last_stats()->seq + 1;
	st.expected = ipi_online_count();
	st.verify_only = true;
	st.why = "locked for SNP: compared, not written";
	n = ipi_call_all(verify_one, &c, true, true);
	st.rc = st.mismatch_cpus || (u32)n != st.expected ? -EIO : 0;
	mtrr_set_cur_state(s);
	mtrr_record_stats(&st);
	if (st.mismatch_cpus)
		pr_err("mtrr: %u of %u CPUs differ (above), locked for SNP\n",
		       st.mismatch_cpus, st.cpus);
	else if (!st.rc)
		pr_info("mtrr: all %u CPUs verified equal to the boot CPU (%s)\n",
			st.cpus, st.why);
	if (out)
		*out = st;
	return st.rc;
}
