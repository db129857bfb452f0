// SPDX-License-Identifier: GPL-2.0-only
/* hv/park/spec_ctrl.c - applies the speculation policy: per-CPU setup, what
 * the VMRUN stub does around VMRUN (the guest/host SPEC_CTRL swap, written
 * only when the values differ, as Linux's x86_spec_ctrl_set_guest/
 * restore_host; the RSB fill), and the IBPB between two guests on a CPU. */
#include "hv/park/spec_ctrl.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/percpu.h"

struct spec_policy g_spec_policy;

void spec_ctrl_boot(bool snp_enabled, enum tristate rsb_fill)
{
	g_spec_policy = spec_policy_decide(&g_features, snp_enabled, rsb_fill);
	spec_policy_log(&g_spec_policy);
}

void spec_ctrl_cpu_init(void)
{
	const struct spec_policy *p = &g_spec_policy;

	/* AMD APM vol 2 3.1.7 (EFER): AutoIBRS is EFER bit 21. */
	if (p->host == SPEC_HOST_AUTO_IBRS)
		wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_AUTOIBRS);
	/* A known starting value: firmware may have left anything here. */
	if (p->has_msr)
		wrmsr(MSR_SPEC_CTRL, p->base);
	this_cpu()->spec_ctrl_base = p->base;
}

void spec_ctrl_svm_host(struct svm_host *h)
{
	const struct spec_policy *p = &g_spec_policy;

	h->spec_ctrl = this_cpu()->spec_ctrl_base;
	h->flags = 0;
	if (p->guest == SPEC_GUEST_SWAP)
		h->flags |= SVM_HOST_SPEC_SWAP;
	/* Decided once at boot (spec_policy_decide()); the stub's one flag
	 * test per exit is all it costs when off. */
	if (p->rsb_fill)
		h->flags |= SVM_HOST_RSB_FILL;
}

void spec_ctrl_guest_load(u64 guest)
{
	struct percpu *pc = this_cpu();

	if (pc->spec_last_guest == guest)
		return;
	pc->spec_last_guest = guest;
	if (g_features.ibpb)
		wrmsr(MSR_PRED_CMD, PRED_CMD_IBPB);
}
