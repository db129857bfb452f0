// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vlapic_exit.c - the vLAPIC's side of a foreign guest's
 * exits: CR8 (V_TPR) back into TPR and the guest's time before a register
 * access, the interrupt-window (VINTR) and IRET exits (APM vol 2 15.21.4,
 * 15.9), minhv's own single step over an NMI handler's IRET (ended,
 * with the guest's TF back, when the IRET faults or an event goes in
 * first), and IA32_TSC_DEADLINE. */
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/vectors.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/svm/exit.h"
#include "hv/svm/vlapic_vcpu.h"

void vlapic_sync_tpr(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	u8 vt = v->vmcb->control.v_intr & V_TPR_MASK;

	/* The guest wrote CR8 (V_TPR) since minhv last set it. */
	if (vt != l->c.vtpr) {
		l->tpr = (u32)vt << 4;
		l->c.vtpr = vt;
	}
}

void vlapic_sync(struct vcpu *v)
{
	if (!guest_has_platform(v->guest))
		return;
	vlapic_sync_tpr(v);
	/* The bus clock runs on the host TSC; the guest's TSC (for
	 * TSC-deadline mode) is that plus its offset. */
	v->lapic.tsc_offset = v->vmcb->control.tsc_offset;
	v->lapic.now = rdtsc();
	vlapic_timer_poll(&v->lapic, v->lapic.now);
}

/* The interrupt window opened: the next VMRUN injects. V_IRQ changed
 * here, so its clean bit goes (APM 15.15.3): vlapic_inject_pending()
 * marks only what it changes itself. */
enum exit_action vlapic_exit_vintr(struct vcpu *v)
{
	v->vmcb->control.v_intr &= ~V_IRQ;
	vmcb_mark_dirty(v->vmcb, VMCB_CLEAN_TPR);
	vmcb_clr_intercept(v->vmcb, INTERCEPT_VINTR);
	return EXIT_RESUME;
}

/* The faults an IRET can raise (SDM vol 2 IRET, APM vol 3 IRET): while
 * minhv steps over one they are intercepted, so that the frame the fault
 * pushes gets the guest's TF, not minhv's. */
static __attribute__((cold)) void step_intercepts(struct vmcb *vm, bool on)
{
	const u32 faults = BIT(VEC_NP) | BIT(VEC_SS) | BIT(VEC_GP) |
			   BIT(VEC_PF);
	u32 *w = &vm->control.intercepts[INTERCEPT_EXCEPTION(0) / 32];

	*w = on ? *w | faults : *w & ~faults;
	vmcb_mark_dirty(vm, VMCB_CLEAN_I);
}

/* IRET with an NMI in service: it intercepts before it executes, so NMIs
 * stay blocked until RIP moves on. With another NMI pending, single-step
 * over the IRET (TF and RF, as KVM does) so it is delivered right after
 * it. */
enum exit_action vlapic_exit_iret(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct vmcb *vm = v->vmcb;

	vmcb_clr_intercept(vm, INTERCEPT_IRET);
	vm->control.clean &= ~VMCB_CLEAN_I;
	l->c.iret_wait = true;
	l->c.iret_rip = vm->save.rip;
	if (__atomic_load_n(&l->nmi_pending, __ATOMIC_ACQUIRE) &&
	    !(vm->save.rflags & RFLAGS_TF)) {
		l->c.nmi_step_rf = vm->save.rflags & RFLAGS_RF;
		vm->save.rflags |= RFLAGS_TF | RFLAGS_RF;
		l->c.nmi_step = true;
		step_intercepts(vm, true);
	}
	return EXIT_RESUME;
}

__attribute__((cold)) void vlapic_step_cancel(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct vmcb *vm = v->vmcb;

	if (!l->c.nmi_step)
		return;
	/* TF was clear when minhv set it; RF back as the guest had it. */
	vm->save.rflags &= ~RFLAGS_TF;
	if (!l->c.nmi_step_rf)
		vm->save.rflags &= ~RFLAGS_RF;
	l->c.nmi_step = false;
	step_intercepts(vm, false);
}

void vlapic_step_entry(struct vcpu *v)
{
	/* An event goes in before the IRET runs (a re-injected one, the
	 * IRET's own fault, an interrupt the NMI handler allows): its frame
	 * must get the guest's TF, and no step follows it (AUDIT B2). */
	if (__builtin_expect(v->lapic.c.nmi_step, 0) &&
	    (v->vmcb->control.event_inj & EVENTINJ_VALID))
		vlapic_step_cancel(v);
}

bool vlapic_db_step(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;

	if (!guest_has_platform(v->guest) || !l->c.nmi_step)
		return false;
	l->c.nmi_step = false;
	step_intercepts(v->vmcb, false);
	/* IRET loaded RFLAGS from the stack, so our TF and RF are gone
	 * already; the trap is ours, not the guest's. */
	v->vmcb->save.dr6 &= ~DR6_BS;
	return true;
}

__attribute__((cold)) bool vlapic_step_fault(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	u8 vec = (u8)(vm->control.exit_code - VMEXIT_EXCP_BASE);

	if (!guest_has_platform(v->guest) || !v->lapic.c.nmi_step)
		return false;
	/* The IRET faulted (RIP still on it): the fault goes to the guest
	 * as the CPU raised it, with the guest's TF in its frame. */
	vlapic_step_cancel(v);
	if (vec == VEC_PF) {
		vm->save.cr2 = vm->control.exit_info2;
		vmcb_mark_dirty(vm, VMCB_CLEAN_CR2);
	}
	vcpu_inject_exception(v, vec, true, (u32)vm->control.exit_info1);
	return true;
}

int vlapic_tsc_deadline_msr(struct vcpu *v, bool wr, u64 *val)
{
	if (!guest_has_platform(v->guest))
		return E_NOT_MINE;
	vlapic_sync(v);
	if (wr)
		vlapic_tsc_deadline_write(&v->lapic, *val);
	else
		*val = vlapic_tsc_deadline_read(&v->lapic);
	return 0;
}
