// SPDX-License-Identifier: GPL-2.0-only
/* hv/view/linux.c - the MSR view of a Linux guest: the AMD MSRs Linux
 * reads without a fault handler during boot answered as an EPYC would
 * (values below). Everything not in this table keeps the common policy
 * (exit_msr.c: #GP). Its CPUID view is the allow-list of hv/cpuid/, which
 * hides every feature whose MSRs minhv does not emulate. */
#include "arch/cpu.h"
#include "arch/msr.h"
#include "arch/errno.h"
#include "hv/guest/guest.h"
#include "hv/view/view.h"

#define FOUR_GIB 0x100000000ULL

enum msr_read {
	RD_ZERO,
	RD_HOST,
	RD_SYSCFG,
	RD_HWCR,
	RD_TOP_MEM,
	RD_DE_CFG,
	RD_NB_CFG
};

struct msr_view {
	u32 first, last;
	enum msr_read read; /* writes are accepted and dropped */
	const char *why;
};

static const struct msr_view msr_views[] = {
	{ MSR_AMD_PATCH_LEVEL, MSR_AMD_PATCH_LEVEL, RD_HOST,
	  "microcode patch level: the CPU's own" },
	{ MSR_K7_EVNTSEL0, MSR_K7_PERFCTR3, RD_ZERO,
	  "legacy PMU: counters that never count (Linux: PMU unavailable)" },
	{ MSR_AMD_SYSCFG, MSR_AMD_SYSCFG, RD_SYSCFG,
	  "MTRR DRAM enables only; no SME/SNP/TOM2" },
	{ MSR_AMD_HWCR, MSR_AMD_HWCR, RD_HWCR, "TscFreqSel as on Zen" },
	{ MSR_AMD_TOP_MEM, MSR_AMD_TOP_MEM, RD_TOP_MEM,
	  "top of guest memory below 4 GiB" },
	{ MSR_AMD_TOP_MEM2, MSR_AMD_TOP_MEM2, RD_ZERO,
	  "no memory above 4 GiB" },
	{ MSR_AMD_NB_CFG, MSR_AMD_NB_CFG, RD_NB_CFG,
	  "CF8 extended config access already on (Linux sets it otherwise)" },
	{ MSR_AMD_TSEG, MSR_AMD_TSEG, RD_ZERO, "no SMM memory" },
	{ MSR_AMD_DE_CFG, MSR_AMD_DE_CFG, RD_DE_CFG,
	  "LFENCE is dispatch-serializing" },
};

static const struct msr_view *lookup(u32 msr)
{
	for (size_t i = 0; i < ARRAY_SIZE(msr_views); i++)
		if (msr >= msr_views[i].first && msr <= msr_views[i].last)
			return &msr_views[i];
	return NULL;
}

int linux_msr_read(struct vcpu *v, u32 msr, u64 *val)
{
	const struct msr_view *m = lookup(msr);
	u64 mem = v->guest->mem_size;

	if (!m)
		return -EINVAL;
	switch (m->read) {
	case RD_ZERO:
		*val = 0;
		break;
	case RD_HOST:
		if (!rdmsr_safe(msr, val))
			*val = 0;
		break;
	case RD_SYSCFG:
		if (!rdmsr_safe(MSR_AMD_SYSCFG, val))
			*val = 0;
		*val &= SYSCFG_MTRR_FIX_DRAM_EN | SYSCFG_MTRR_VAR_DRAM_EN;
		break;
	case RD_HWCR:
		*val = HWCR_TSC_FREQ_SEL;
		break;
	case RD_TOP_MEM:
		*val = mem < FOUR_GIB ? mem : FOUR_GIB;
		break;
	case RD_DE_CFG:
		*val = DE_CFG_LFENCE_SERIALIZE;
		break;
	case RD_NB_CFG:
		*val = NB_CFG_CF8_EXT_CFG;
		break;
	}
	return 0;
}

int linux_msr_write(struct vcpu *v, u32 msr, u64 val)
{
	(void)v;
	(void)val;
	return lookup(msr) ? 0 : -EINVAL;
}
