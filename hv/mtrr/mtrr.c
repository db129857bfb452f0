// SPDX-License-Identifier: GPL-2.0-only
/* hv/mtrr/mtrr.c - MTRR module state: the state every CPU holds, the flush
 * option, the last statistics, the SNP lock, and boot-time init. */
#include "arch/cpu.h"
#include "arch/msr.h"
#include "arch/errno.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mtrr/internal.h"
#include "hv/mtrr/mtrr.h"

/* hv/mtrr/internal.h */
struct mtrr_module g_mtrr = { .flush_opt = TRI_AUTO };

struct mtrr_state *mtrr_cur_state(void)
{
	return g_mtrr.cur_valid ? &g_mtrr.cur : NULL;
}

void mtrr_set_cur_state(const struct mtrr_state *s)
{
	if (s != &g_mtrr.cur)
		memcpy(&g_mtrr.cur, s, sizeof(g_mtrr.cur));
	g_mtrr.cur_valid = true;
}

const struct mtrr_state *mtrr_current(void)
{
	return mtrr_cur_state();
}

void mtrr_record_stats(const struct mtrr_stats *st)
{
	g_mtrr.last = *st;
}

const struct mtrr_stats *mtrr_last_stats(void)
{
	return &g_mtrr.last;
}

void mtrr_set_flush_option(enum tristate t)
{
	g_mtrr.flush_opt = t;
}

enum tristate mtrr_flush_option(void)
{
	return g_mtrr.flush_opt;
}

void mtrr_lock_for_snp(void)
{
	__atomic_store_n(&g_mtrr.snp_locked, true, __ATOMIC_RELEASE);
}

bool mtrr_locked_for_snp(void)
{
	/* Also refuse if someone enabled SNP without telling us: after
	 * SYSCFG.SNP_EN the fixed MTRRs and SYSCFG are read-only. */
	if (!__atomic_load_n(&g_mtrr.snp_locked, __ATOMIC_ACQUIRE) &&
	    g_features.snp && (rdmsr(MSR_AMD_SYSCFG) & SYSCFG_SNP_EN))
		mtrr_lock_for_snp();
	return __atomic_load_n(&g_mtrr.snp_locked, __ATOMIC_ACQUIRE);
}

int mtrr_init(void)
{
	struct mtrr_state *s = &g_mtrr.cur;

	if (!g_features.mtrr) {
		pr_info("mtrr: CPUID.1:EDX[12]=0: no MTRRs, nothing to replicate\n");
		return 0;
	}
	if (mtrr_locked_for_snp()) {
		/* SYSCFG.SNP_EN from firmware (docs/HARDWARE.md: supported):
		 * the fixed MTRRs and SYSCFG are read-only now, and firmware
		 * programmed every CPU alike. Check that instead of failing
		 * the run. */
		mtrr_read(s);
		return mtrr_verify_all(s, NULL);
	}
	mtrr_capture(s);
	g_mtrr.cur_valid = true;
	pr_info("mtrr: boot CPU: %u variable ranges, fixed %s, default %s, %s%s\n",
		s->vcnt, s->have_fixed ? "yes" : "no",
		mtrr_type_name(MTRR_DEF_TYPE_TYPE(s->def_type)),
		s->def_type & MTRR_DEF_TYPE_E ? "enabled" : "disabled",
		s->have_syscfg ?
			(s->fix_dram_mod_en ? ", SYSCFG.MtrrFixDramModEn=1" :
					      ", SYSCFG.MtrrFixDramModEn=0") :
			"");
	if (g_mtrr.flush_opt == TRI_OFF)
		pr_warn("mtrr: mtrr_flush=off: caches are never flushed around MTRR changes; memory made UC may keep stale cached lines\n");
	return mtrr_sync_all(s, NULL);
}
