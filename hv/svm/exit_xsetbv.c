// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_xsetbv.c - XSETBV from the guest (intercepted, general2 bit
 * 13): VMRUN does not switch XCR0, so minhv keeps each vCPU's value
 * (hv/vcpu/vcpu_fpu.c) and checks it as the CPU would (SDM vol 2 XSETBV):
 * #UD without CR4.OSXSAVE (the intercept is checked before it on this
 * path: QEMU exits), #GP at CPL > 0, for ECX != 0 or a value the host
 * does not allow. */
#include "arch/cr.h"
#include "hv/svm/exit.h"
#include "hv/vcpu/vcpu_fpu.h"

enum exit_action exit_xsetbv(struct vcpu *v)
{
	u32 index = (u32)v->gprs.rcx;
	u64 val = ((u64)(u32)v->gprs.rdx << 32) | (u32)v->vmcb->save.rax;

	/* No XSAVE in CPUID, or the guest has not enabled it: #UD. */
	if (g_fpu.mode != FPU_XSAVE || !(v->vmcb->save.cr4 & CR4_OSXSAVE)) {
		vcpu_inject_exception(v, VEC_UD, false, 0);
		return EXIT_RESUME;
	}
	if (v->vmcb->save.cpl != 0 || !xcr0_valid(g_fpu.xcr0, index, val)) {
		vcpu_inject_exception(v, VEC_GP, true, 0);
		return EXIT_RESUME;
	}
	vcpu_fpu_set_xcr0(v, val);
	return vcpu_skip_insn(v) ? EXIT_RESUME : EXIT_LEAVE;
}
