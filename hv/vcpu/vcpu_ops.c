// SPDX-License-Identifier: GPL-2.0-only
/* hv/vcpu/vcpu_ops.c - operations on one vCPU's VMCB: exception injection
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
	/* EXITINTINFO's event, re-injected before this handler ran, is not
	 * replaced (an external interrupt already moved IRR -> ISR would be
	 * lost, its class blocked until an EOI that never comes): this one
	 * waits for the entry after it (hv/svm/event_inject.c). The first
	 * one queued stays. */
	if (__builtin_expect(v->vmcb->control.event_inj & EVENTINJ_VALID, 0)) {
		if (!v->queued_event)
			v->queued_event = e;
		return;
	}
	v->vmcb->control.event_inj = e;
}

/* The processor clears DR7.GD when it enters the #DB handler (SDM vol 3B
 * 18.2.4), so that the handler may read DR6; an injected #DB does not do
 * it for us, and a guest whose #DB was a general-detect one (DR6.BD)
 * would fault again on its own MOV from DR6, forever. KVM clears GD
 * whenever it injects #DB (kvm_inject_exception()). */
__attribute__((cold)) void vcpu_inject_db(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;

	if (vm->save.dr7 & DR7_GD)
		vmcb_set_dr7(vm, vm->save.dr7 & ~DR7_GD);
	vcpu_inject_exception(v, VEC_DB, false, 0);
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

	/* TF is minhv's own, for an NMI window (hv/svm/vlapic_inject.c):
	 * the instruction it stepped over exited and is done, so the window
	 * is open; no #DB is the guest's (sti; hlt in an NMI's way). */
	if (v->lapic.c.nmi_step) {
		vcpu_nmi_step_end(v);
		return;
	}
	if (vm->control.event_inj & EVENTINJ_VALID)
		return;
	vmcb_set_dr6(vm,
		     (vm->save.dr6 | DR6_ACTIVE_LOW | DR6_BS) & ~DR6_TRAP_BITS);
	vcpu_inject_db(v);
}

__attribute__((cold)) void vcpu_nmi_step_end(struct vcpu *v)
{
	struct vmcb_save *s = &v->vmcb->save;

	/* A stepped IRET (seen at c.iret_rip, RIP moved past it) loaded
	 * RFLAGS from the NMI handler's frame: those are the guest's. */
	if (!(v->lapic.c.iret_wait && s->rip != v->lapic.c.iret_rip)) {
		s->rflags &= ~RFLAGS_TF;
		if (!v->lapic.c.nmi_step_rf)
			s->rflags &= ~RFLAGS_RF;
	}
	v->lapic.c.nmi_step = v->lapic.c.nmi_step_rf = false;
	vcpu_step_faults_intercept(v->vmcb, false);
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
