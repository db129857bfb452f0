// SPDX-License-Identifier: GPL-2.0-only
/* hv/vcpu/vcpu_ops.c - operations on one vCPU's VMCB: event injection
 * (APM vol 2, 15.20) and RIP advance (15.7.1) through the one
 * "instruction completed" path, with its single-step trap. */
#include "arch/cr.h"
#include "hv/emul/vcpu_api.h"
#include "hv/features.h"
#include "hv/vcpu/vcpu.h"
#include "hv/vmcb/exit_decode.h"

void vcpu_inject_exception(struct vcpu *v, u8 vector, bool has_err, u32 err)
{
	u64 e = vector | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;

	if (has_err)
		e |= EVENTINJ_EV | ((u64)err << 32);
	v->vmcb->control.event_inj = e;
}

/* An intercepted instruction never executes in the guest, so the CPU's
 * single-step trap after it (SDM vol 3B 18.3.1.4; APM vol 2 13.1.3.5) is
 * minhv's to raise: a #DB trap with RIP after the instruction, DR6.BS set
 * and B0-B3 clear, as KVM does for instructions it emulates. Called only
 * once the instruction completed (vcpu_insn_complete()): a faulting one,
 * or a REP string I/O that continues, gets none. An event already queued for
 * this entry is not overwritten. */
__attribute__((cold)) void vcpu_step_trap(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;

	if (vm->control.event_inj & EVENTINJ_VALID)
		return;
	vm->save.dr6 = (vm->save.dr6 | DR6_ACTIVE_LOW | DR6_BS) & ~DR6_TRAP_BITS;
	vmcb_mark_dirty(vm, VMCB_CLEAN_DRX);
	vcpu_inject_exception(v, VEC_DB, false, 0);
}

/* Out of line: the guest_stop() call would give vcpu_skip_insn() a frame
 * on every exit. */
static __attribute__((noinline, cold)) bool skip_failed(struct vcpu *v)
{
	vcpu_stop_guest(v, -1, true,
			"vCPU %u: cannot step over exit %#llx at RIP %#llx",
			v->id, (unsigned long long)v->vmcb->control.exit_code,
			(unsigned long long)v->vmcb->save.rip);
	return false;
}

bool vcpu_skip_insn(struct vcpu *v)
{
	u64 next;

	if (!exit_next_rip(v->vmcb, g_features.nrips, &next))
		return skip_failed(v);
	vcpu_insn_complete(v, next);
	return true;
}

/* APM 15.7.2: EXITINTINFO has EVENTINJ's layout (vector, type, EV, V,
 * error code in 63:32). Only V (bit 31) is tested: QEMU leaves other bits
 * set with V=0. A handler that injects its own event replaces it. */
void vcpu_reinject_event(struct vcpu *v)
{
	struct vmcb_control *c = &v->vmcb->control;

	if (c->exit_int_info & EVENTINJ_VALID)
		c->event_inj = c->exit_int_info;
}
