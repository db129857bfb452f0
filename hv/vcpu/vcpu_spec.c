// SPDX-License-Identifier: GPL-2.0-only
/* hv/vcpu/vcpu_spec.c - the guest's SPEC_CTRL in hardware while it runs,
 * as KVM's svm_vcpu_run: with V_SPEC_CTRL (CPUID 0x8000000A:EDX[20]) VMRUN
 * loads it from the VMCB (save area +0x2E0) and #VMEXIT stores it back and
 * restores the host's; otherwise the VMRUN stub swaps the MSR
 * (arch/svm.asm, SVM_HOST_SPEC_SWAP) and these do nothing. */
#include "hv/vcpu/vcpu.h"
#include "hv/park/spec_ctrl.h"

void vcpu_spec_enter(struct vcpu *v)
{
	if (g_spec_policy.guest == SPEC_GUEST_V_SPEC_CTRL)
		v->vmcb->save.spec_ctrl = v->gprs.spec_ctrl;
}

void vcpu_spec_exit(struct vcpu *v)
{
	if (g_spec_policy.guest == SPEC_GUEST_V_SPEC_CTRL)
		v->gprs.spec_ctrl = v->vmcb->save.spec_ctrl;
}
