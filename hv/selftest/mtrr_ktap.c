// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/mtrr_ktap.c - the boot checks for the MTRR rendezvous: every CPU took
 * part, every CPU verified equal to the boot CPU, and the WBINVD count
 * agrees with the flush rule that was logged. Then a self-test of
 * mtrr_set_range() on an address range no RAM or device uses: WB -> WC
 * (nothing becomes UC), WC -> UC (a cacheable type becomes UC: flushed even
 * with self-snoop), and back to the boot state (UC -> WB). Under QEMU TCG
 * MTRRs have no effect, so touching that range would change nothing. */
#include "hv/selftest/selftest.h"
#include "arch/fw_cfg.h"
#include "hv/features.h"
#include "hv/smp/ipi.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "hv/mtrr/mtrr.h"

/* 2 MiB at 5 GiB: above QEMU's 32-bit hole, no RAM there unless a run is
 * given more than 3 GiB (q35 then maps RAM above 4 GiB; harmless under
 * TCG, where MTRRs have no effect). Run only under QEMU. */
#define SELFTEST_BASE (5ULL << 30)
#define SELFTEST_SIZE (2ULL << 20)
#define SELFTEST_MAX_CPUS 64

static bool stats_ok(const struct mtrr_stats *s, u32 online)
{
	return s->rc == 0 && s->cpus == online && s->mismatch_cpus == 0 &&
	       s->wbinvd_total == (s->flushed ? 2ULL * s->cpus : 0);
}

/* May the self-test use [SELFTEST_BASE, +SIZE)? No valid variable MTRR
 * may overlap it, one must be free, and the default type must be WB. */
static const char *selftest_blocked(const struct mtrr_state *cur, u32 online)
{
	bool free_slot = false;

	if (!cur)
		return "mtrr_init did not capture a state";
	if (mtrr_locked_for_snp())
		return "MTRRs locked for SNP (SNP_EN set by firmware)";
	/* On hardware 5 GiB may be RAM in use: making it WC under a running
	 * hypervisor is not a test to run blind. */
	if (!fw_cfg_present())
		return "not under QEMU (the test range may be RAM)";
	/* Under TCG one rendezvous of hundreds of vCPUs takes seconds;
	 * tests/boot/20-mtrr.t runs the self-test with 4 and 64 CPUs. */
	if (online > SELFTEST_MAX_CPUS)
		return "more than 64 CPUs (three more rendezvous would take too long under QEMU)";
	if (g_features.phys_addr_bits < 34)
		return "fewer than 34 physical address bits";
	if (MTRR_DEF_TYPE_TYPE(cur->def_type) != MTRR_TYPE_WB ||
	    !(cur->def_type & MTRR_DEF_TYPE_E))
		return "default memory type is not WB";
	for (u32 i = 0; i < cur->vcnt; i++) {
		const struct mtrr_var *v = &cur->var[i];

		if (!(v->mask & MTRR_PHYSMASK_VALID)) {
			free_slot = true;
			continue;
		}
		if (((v->base ^ SELFTEST_BASE) & v->mask & MTRR_ADDR_MASK &
		     ~(SELFTEST_SIZE - 1)) == 0)
			return "a variable MTRR already covers the test range";
	}
	return free_slot ? NULL : "no free variable MTRR";
}

static void range_selftest(u32 online)
{
	static struct mtrr_state saved;
	const struct mtrr_state *cur = mtrr_current();
	const struct mtrr_stats *s = mtrr_last_stats();
	const char *why = selftest_blocked(cur, online);
	bool auto_rule = mtrr_flush_option() == TRI_AUTO;
	int rc;

	if (why) {
		ktap_skip("mtrr.set_range_wc", "%s", why);
		ktap_skip("mtrr.set_range_uc_flushes", "%s", why);
		ktap_skip("mtrr.set_range_restored", "%s", why);
		return;
	}
	saved = *cur;
	pr_info("mtrr: self-test: %#llx+%#llx WB -> WC -> UC -> WB\n",
		(unsigned long long)SELFTEST_BASE,
		(unsigned long long)SELFTEST_SIZE);

	rc = mtrr_set_range(SELFTEST_BASE, SELFTEST_SIZE, MTRR_TYPE_WC);
	/* WB -> WC: nothing becomes UC, so self-snoop skips the flush. */
	ktap_ok("mtrr.set_range_wc",
		rc == 0 && stats_ok(s, online) &&
			(!auto_rule || s->flushed == !g_features.self_snoop),
		"rc %d: %s, %llu WBINVDs on %u CPUs, %u differ (%s)", rc,
		s->flushed ? "flushed" : "not flushed",
		(unsigned long long)s->wbinvd_total, s->cpus, s->mismatch_cpus,
		s->why ? s->why : "?");

	rc = rc ? rc :
		  mtrr_set_range(SELFTEST_BASE, SELFTEST_SIZE, MTRR_TYPE_UC);
	/* WC -> UC: cacheable to UC, flushed with or without self-snoop. */
	ktap_ok("mtrr.set_range_uc_flushes",
		rc == 0 && stats_ok(s, online) &&
			(mtrr_flush_option() == TRI_OFF || s->flushed),
		"rc %d: %s, %llu WBINVDs on %u CPUs, %u differ (%s)", rc,
		s->flushed ? "flushed" : "not flushed",
		(unsigned long long)s->wbinvd_total, s->cpus, s->mismatch_cpus,
		s->why ? s->why : "?");

	/* Back to what firmware left (the range's MTRR freed): UC -> WB. */
	rc = mtrr_sync_all(&saved, NULL);
	ktap_ok("mtrr.set_range_restored",
		rc == 0 && stats_ok(s, online) &&
			mtrr_compare(&saved, ipi_this_cpu(), MTRR_CMP_REPORT) ==
				0 &&
			(!auto_rule || s->flushed == !g_features.self_snoop),
		"rc %d: %s, %llu WBINVDs on %u CPUs, %u differ (%s)", rc,
		s->flushed ? "flushed" : "not flushed",
		(unsigned long long)s->wbinvd_total, s->cpus, s->mismatch_cpus,
		s->why ? s->why : "?");
}

void mtrr_ktap(int init_rc)
{
	const struct mtrr_stats *s = mtrr_last_stats();
	u32 online = ipi_online_count();

	if (!g_features.mtrr) {
		ktap_skip("mtrr.rendezvous",
			  "CPUID.1:EDX[12] reports no MTRRs");
		ktap_skip("mtrr.verified", "no MTRRs");
		ktap_skip("mtrr.flush_rule", "no MTRRs");
		ktap_skip("mtrr.self_snoop_skips_flush", "no MTRRs");
		ktap_skip("mtrr.set_range_wc", "no MTRRs");
		ktap_skip("mtrr.set_range_uc_flushes", "no MTRRs");
		ktap_skip("mtrr.set_range_restored", "no MTRRs");
		return;
	}
	ktap_ok("mtrr.rendezvous", init_rc == 0 && s->seq && s->cpus == online,
		"rc %d, %u of %u online CPUs ran the procedure", init_rc,
		s->cpus, online);
	ktap_ok("mtrr.verified", s->seq && s->mismatch_cpus == 0 && s->rc == 0,
		"%u CPUs differ from the boot CPU after the rendezvous",
		s->mismatch_cpus);
	/* Two WBINVDs per CPU when flushing, none when the shortcut applied. */
	ktap_ok("mtrr.flush_rule",
		s->wbinvd_total == (s->flushed ? 2ULL * s->cpus : 0),
		"%s: %llu WBINVDs on %u CPUs (%s)",
		s->flushed ? "flushed" : "not flushed",
		(unsigned long long)s->wbinvd_total, s->cpus,
		s->why ? s->why : "?");
	if (!g_features.self_snoop)
		ktap_skip("mtrr.self_snoop_skips_flush",
			  "CPUID.1:EDX[27] self-snoop not set");
	else if (mtrr_flush_option() != TRI_AUTO)
		ktap_skip("mtrr.self_snoop_skips_flush", "%s",
			  mtrr_flush_option() == TRI_ON ?
				  "mtrr_flush=on forces the flush" :
				  "mtrr_flush=off never flushes");
	else
		ktap_ok("mtrr.self_snoop_skips_flush", !s->flushed,
			"self-snoop CPU flushed anyway: %s",
			s->why ? s->why : "?");
	range_selftest(online);
}
