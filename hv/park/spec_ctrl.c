// SPDX-License-Identifier: GPL-2.0-only
/* hv/park/spec_ctrl.c - applies the speculation policy: per-CPU setup and the
 * guest/host SPEC_CTRL switch around VMRUN (minimal writes, as Linux's
 * x86_spec_ctrl_set_guest/restore_host: write only when the values differ). */
#include "hv/park/spec_ctrl.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/percpu.h"

struct spec_policy g_spec_policy;

void spec_ctrl_boot(bool snp_enabled)
{
	g_spec_policy = spec_policy_decide(&g_features, snp_enabled);
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

void spec_ctrl_guest_enter(u64 guest_val)
{
	if (g_spec_policy.guest != SPEC_GUEST_SWAP)
		return;
	if (guest_val != this_cpu()->spec_ctrl_base)
		wrmsr(MSR_SPEC_CTRL, guest_val);
}

void spec_ctrl_guest_exit(u64 *guest_val)
{
	u64 base;

	if (g_spec_policy.guest != SPEC_GUEST_SWAP)
		return;
	base = this_cpu()->spec_ctrl_base;
	/* The guest may write SPEC_CTRL without an exit (MSRPM pass-through),
	 * so read back what it left before the host value goes in. */
	*guest_val = rdmsr(MSR_SPEC_CTRL);
	if (*guest_val != base)
		wrmsr(MSR_SPEC_CTRL, base);
}
