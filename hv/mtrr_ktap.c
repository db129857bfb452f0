/* hv/mtrr_ktap.c - the boot checks for the MTRR rendezvous: every CPU took
 * part, every CPU verified equal to the boot CPU, and the WBINVD count
 * agrees with the flush rule that was logged. */
#include "hv/features.h"
#include "hv/ipi.h"
#include "hv/ktap.h"
#include "hv/mtrr.h"

void mtrr_ktap(int init_rc)
{
	const struct mtrr_stats *s = mtrr_last_stats();
	u32 online = smp_online_count();

	if (!g_features.mtrr) {
		ktap_skip("mtrr.rendezvous", "CPUID.1:EDX[12] reports no MTRRs");
		ktap_skip("mtrr.verified", "no MTRRs");
		ktap_skip("mtrr.flush_rule", "no MTRRs");
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
	if (g_features.self_snoop)
		ktap_ok("mtrr.self_snoop_skips_flush", !s->flushed,
			"self-snoop CPU flushed anyway: %s",
			s->why ? s->why : "?");
	else
		ktap_skip("mtrr.self_snoop_skips_flush",
			  "CPUID.1:EDX[27] self-snoop not set");
}
