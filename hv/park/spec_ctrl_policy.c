// SPDX-License-Identifier: GPL-2.0-only
/* hv/park/spec_ctrl_policy.c - the speculation-control decision, as a pure
 * function of the CPUID features, and its log lines. No MSR is touched here;
 * hv/park/spec_ctrl.c applies the result. */
#include "hv/park/spec_ctrl.h"
#include "arch/msr.h"
#include "hv/log.h"

static void decide_host(struct spec_policy *p)
{
	if (p->auto_ibrs && !p->snp_enabled) {
		/* Linux "x86/cpu: Support AMD Automatic IBRS": with EFER[21]
		 * set, CPL0 gets IBRS protection without touching SPEC_CTRL. */
		p->host = SPEC_HOST_AUTO_IBRS;
		p->host_why =
			"AutoIBRS enumerated (CPUID 0x80000021:EAX[8]), EFER.AUTOIBRS protects host mode";
	} else if (p->ibrs) {
		p->host = SPEC_HOST_KERNEL_IBRS;
		/* Linux "x86/speculation: Do not enable Automatic IBRS if
		 * SEV-SNP is enabled": the host must not rely on it. */
		p->host_why =
			p->auto_ibrs ?
				"SNP enabled: the host must not rely on AutoIBRS, kernel-mode IBRS instead" :
				"IBRS enumerated without AutoIBRS: kernel-mode IBRS";
	} else {
		p->host = SPEC_HOST_NONE;
		p->host_why =
			p->auto_ibrs ?
				"SNP enabled rules out AutoIBRS and IBRS is not enumerated" :
				"IBRS not enumerated by CPUID";
	}
}

u64 spec_park_value(u64 base)
{
	/* Linux "x86/idle: Disable IBRS when CPU is offline": an idle thread
	 * left with IBRS (or STIBP) set slows its SMT sibling; SSBD only
	 * affects this thread's own loads, so it stays as the base has it. */
	return base & ~(SPEC_CTRL_IBRS | SPEC_CTRL_STIBP);
}

static void decide_park(struct spec_policy *p)
{
	p->park_val = spec_park_value(p->base);
	p->park_lowers = p->park_val != p->base;
	switch (p->host) {
	case SPEC_HOST_KERNEL_IBRS:
		p->park_why =
			"kernel-mode IBRS: IBRS and STIBP cleared while parked so the SMT sibling runs at full speed, base restored first on wake";
		break;
	case SPEC_HOST_AUTO_IBRS:
		p->park_why =
			"no SPEC_CTRL change needed: AutoIBRS in use, SPEC_CTRL.IBRS is never set";
		break;
	default:
		p->park_why =
			"no SPEC_CTRL write needed: IBRS not enumerated by CPUID, host SPEC_CTRL.IBRS is never set";
		break;
	}
}

/* Linux's spectre_v2_determine_rsb_fill_type_at_vmexit() sets
 * X86_FEATURE_RSB_VMEXIT (32 CALLs after VMEXIT) in the retpoline, LFENCE
 * and IBRS modes and not with (e)IBRS, AutoIBRS on AMD, which has no PBRSB:
 * there the RSB's guest entries do not steer host RETs. minhv has no
 * retpolines; without AutoIBRS its host RETs would follow what a guest
 * left in the RSB (SpectreRSB). QEMU TCG runs nothing speculatively, so
 * there is no RSB to poison and the fill is pure cost. */
static __attribute__((noinline)) void
decide_rsb(struct spec_policy *p, const struct features *f, enum tristate opt)
{
	if (opt != TRI_AUTO) {
		p->rsb_fill = opt == TRI_ON;
		p->rsb_why = p->rsb_fill ? "rsb_fill=on" : "rsb_fill=off";
	} else if (f->tcg) {
		p->rsb_fill = false;
		p->rsb_why =
			"QEMU TCG, CPUID 0x40000000 TCGTCGTCGTCG: no speculation";
	} else if (p->host == SPEC_HOST_AUTO_IBRS) {
		p->rsb_fill = false;
		p->rsb_why =
			"AutoIBRS: guest RSB entries do not steer host RETs";
	} else {
		p->rsb_fill = true;
		p->rsb_why =
			"no AutoIBRS in use: guest RSB entries could steer host RETs";
	}
}

struct spec_policy spec_policy_decide(const struct features *f,
				      bool snp_enabled, enum tristate rsb_fill)
{
	struct spec_policy p = {
		.ibrs = f->ibrs,
		.stibp = f->stibp,
		.ssbd = f->ssbd,
		.auto_ibrs = f->auto_ibrs,
		.ibrs_always_on = f->ibrs_always_on,
		.ibrs_preferred = f->ibrs_preferred,
		.snp_enabled = snp_enabled,
	};

	p.has_msr = f->ibrs || f->stibp || f->ssbd;
	decide_host(&p);
	p.base = p.host == SPEC_HOST_KERNEL_IBRS ? SPEC_CTRL_IBRS : 0;
	decide_park(&p);
	/* APM vol 2, SVM "SPEC_CTRL virtualization" (CPUID 0x8000000A:
	 * EDX[20]): VMRUN loads the guest value from the VMCB and #VMEXIT
	 * restores the host's; otherwise software swaps (Linux svm_vcpu_run,
	 * x86_spec_ctrl_set_guest/restore_host). */
	if (!p.has_msr)
		p.guest = SPEC_GUEST_NONE;
	else if (f->v_spec_ctrl)
		p.guest = SPEC_GUEST_V_SPEC_CTRL;
	else
		p.guest = SPEC_GUEST_SWAP;
	decide_rsb(&p, f, rsb_fill);
	return p;
}

const char *spec_host_mode_name(enum spec_host_mode m)
{
	switch (m) {
	case SPEC_HOST_AUTO_IBRS:
		return "AutoIBRS";
	case SPEC_HOST_KERNEL_IBRS:
		return "kernel-mode IBRS";
	default:
		return "none";
	}
}

const char *spec_guest_mode_name(enum spec_guest_mode m)
{
	switch (m) {
	case SPEC_GUEST_V_SPEC_CTRL:
		return "V_SPEC_CTRL (hardware swaps guest and host values at VMRUN/#VMEXIT)";
	case SPEC_GUEST_SWAP:
		return "saved/restored around VMRUN by software, written only when guest and host values differ";
	default:
		return "no SPEC_CTRL MSR, nothing to switch across VMRUN";
	}
}

void spec_policy_log(const struct spec_policy *p)
{
	pr_info("spec: CPUID enumerates ibrs=%d stibp=%d ssbd=%d auto-ibrs=%d ibrs-always-on=%d ibrs-preferred=%d; snp %s\n",
		p->ibrs, p->stibp, p->ssbd, p->auto_ibrs, p->ibrs_always_on,
		p->ibrs_preferred, p->snp_enabled ? "enabled" : "not enabled");
	pr_info("spec: host protection: %s (%s); base SPEC_CTRL 0x%llx%s\n",
		spec_host_mode_name(p->host), p->host_why,
		(unsigned long long)p->base,
		p->has_msr ? "" : " (no SPEC_CTRL MSR, never written)");
	pr_info("spec: guest SPEC_CTRL: %s\n", spec_guest_mode_name(p->guest));
	pr_info("spec: RSB fill after #VMEXIT: %s (%s)\n",
		p->rsb_fill ? "on" : "off", p->rsb_why);
	if (p->park_lowers)
		pr_info("spec: parking: SPEC_CTRL 0x%llx while parked, 0x%llx on wake (%s)\n",
			(unsigned long long)p->park_val,
			(unsigned long long)p->base, p->park_why);
	else
		pr_info("spec: parking: %s\n", p->park_why);
}
