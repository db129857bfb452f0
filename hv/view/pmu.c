// SPDX-License-Identifier: GPL-2.0-only
/* hv/view/pmu.c - the AMD core performance counter MSRs a multiboot
 * guest may program (APM vol 2, 13.2.1): the legacy PerfEvtSel0-3 /
 * PerfCtr0-3 (C001_0000h-C001_0007h) and, aliasing them, the six
 * interleaved PerfEvtSel/PerfCtr pairs at C001_0200h. They hold what is
 * written (48-bit counters) but never count: minhv does not virtualize
 * the PMU. */
#include "arch/errno.h"
#include "arch/msr.h"
#include "hv/guest/guest.h"
#include "hv/view/view.h"

#define CTR_MASK ((1ULL << 48) - 1)

/* Which register msr names: *ctl selects the event-select bank. */
static bool pmu_reg(u32 msr, unsigned *idx, bool *ctl)
{
	if (msr >= MSR_K7_EVNTSEL0 && msr <= MSR_K7_PERFCTR3) {
		*ctl = msr < MSR_K7_PERFCTR0;
		*idx = (msr - MSR_K7_EVNTSEL0) % 4;
		return true;
	}
	if (msr >= MSR_F15H_PERF_CTL0 &&
	    msr < MSR_F15H_PERF_CTL0 + 2 * VCPU_PMU_CTRS) {
		*ctl = !((msr - MSR_F15H_PERF_CTL0) & 1);
		*idx = (msr - MSR_F15H_PERF_CTL0) / 2;
		return true;
	}
	return false;
}

int exit_msr_pmu(struct vcpu *v, u32 msr, bool wr, u64 *val)
{
	unsigned i;
	bool ctl;
	u64 *reg;

	if (v->guest->kind != GUEST_MULTIBOOT || !pmu_reg(msr, &i, &ctl))
		return E_NOT_MINE;
	reg = ctl ? &v->perf_ctl[i] : &v->perf_ctr[i];
	if (!wr) {
		*val = *reg;
		return 0;
	}
	*reg = ctl ? *val : *val & CTR_MASK;
	return 0;
}
