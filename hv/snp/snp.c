// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/snp.c - SEV-SNP detection and set-up, once at boot: CPUID 0x8000001F
 * and SYSCFG.SNP_EN (APM vol 2 15.36), RMP_BASE/END, RMPOPT (pub. 69201),
 * then the RMP back end, RMPOPT_BASE on every core and a first pass. */
#include "arch/errno.h"
#include "hv/snp/snp.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/features.h"
#include "hv/log.h"
#include "hv/options/options.h"
#include "hv/percpu.h"
#include "hv/snp/rmp.h"
#include "hv/snp/rmp_model.h"
#include "hv/snp/rmpopt_topo.h"

struct snp_info g_snp;

_Static_assert((int)RMPOPT_MODE_LEADER == (int)RMPOPT_LEADER &&
		       (int)RMPOPT_MODE_ALL == (int)RMPOPT_ALL &&
		       (int)RMPOPT_MODE_BOTH == (int)RMPOPT_BOTH,
	       "hv_main passes g_options.rmpopt to snp_init()");

/* Entries of the RMP model and of the page tracking: enough for a few
 * SNP guests of 4 KiB pages or many of 2 MiB pages. */
#define SNP_MODEL_ENTRIES 16384
#define SNP_TRACK_PAGES 16384

static void detect(struct snp_info *s)
{
	u64 v;

	*s = (struct snp_info){ 0 };
	s->cpu_snp = g_features.snp;
	s->segmented_rmp = g_features.segmented_rmp;
	s->rmpopt = g_features.rmpopt;
	/* SYSCFG exists wherever CPUID reports SNP; never probe it else. */
	if (s->cpu_snp && rdmsr_safe(MSR_AMD_SYSCFG, &v))
		s->snp_en = v & SYSCFG_SNP_EN;
	if (s->snp_en) {
		if (rdmsr_safe(MSR_AMD_RMP_BASE, &v))
			s->rmp_base = v;
		if (rdmsr_safe(MSR_AMD_RMP_END, &v))
			s->rmp_end = v;
		/* RMP_CFG exists where CPUID reports segmented RMP. */
		if (s->segmented_rmp && rdmsr_safe(MSR_AMD_RMP_CFG, &v))
			s->segmented_en = v & RMP_CFG_SEGMENTED_EN;
	}
	/* RMPOPT is defined only with the segmented RMP enabled (pub.
	 * 69201; Linux does not use it otherwise). */
	s->rmpopt_usable = s->snp_en && s->rmpopt && s->segmented_en;
}

int snp_init(enum rmpopt_mode mode, u64 ram_top)
{
	hpa_t base = hpa(0); /* lowest RAM, 1 GiB aligned (as Linux) */
	u32 left_out;

	detect(&g_snp);
	pr_info("snp: cpu snp=%d syscfg.snp_en=%d rmp %#llx-%#llx segmented-rmp=%d rmpopt=%d threads/core=%u\n",
		g_snp.cpu_snp, g_snp.snp_en, (unsigned long long)g_snp.rmp_base,
		(unsigned long long)g_snp.rmp_end, g_snp.segmented_rmp,
		g_snp.rmpopt, g_features.threads_per_core);
	if (g_snp.snp_en && g_snp.rmpopt && !g_snp.segmented_en)
		pr_warn("snp: RMPOPT unusable: segmented RMP not enabled (RMP_CFG[0] = 0); using the RMP model\n");
	rmp_select(g_snp.snp_en, g_snp.rmpopt_usable);
	pr_info("snp: RMP back end: %s\n", g_rmp->name);
	if (rmpopt_topo_init(g_features.threads_per_core) ||
	    (g_rmp == &rmp_model_ops &&
	     rmp_model_init(base, rmpopt_ncores(), SNP_MODEL_ENTRIES)) ||
	    snp_guest_init(SNP_TRACK_PAGES) || rmpopt_init(base, mode)) {
		pr_err("snp: out of memory for the RMP state\n");
		return -ENOMEM;
	}
	pr_info("snp: RMPOPT_BASE %#llx (covers 2 TiB) on %u cores of %u CPUs, schedule %s\n",
		(unsigned long long)(base.v | RMPOPT_BASE_EN), rmpopt_ncores(),
		rmpopt_ncpus(),
		mode == RMPOPT_MODE_ALL	 ? "all" :
		mode == RMPOPT_MODE_BOTH ? "both" :
					   "leader");
	if (mode == RMPOPT_MODE_BOTH && !g_rmp->forget_opt)
		pr_info("snp: rmpopt=both compares schedules on the model only; hardware uses leader\n");
	g_snp.ready = true;
	/* Like Linux at SNP set-up: optimize all RAM no guest owns yet. */
	left_out = rmpopt_pending_add(base, ALIGN_UP(ram_top, SZ_1G) - base.v);
	if (left_out)
		pr_info("snp: %u GiB of RAM beyond RMPOPT coverage\n",
			left_out);
	rmpopt_flush();
	return 0;
}

u32 snp_rmpopt_flush(void)
{
	return g_snp.ready ? rmpopt_flush() : 0;
}
