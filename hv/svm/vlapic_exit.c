// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vlapic_exit.c - the vLAPIC's side of a foreign guest's
 * exits: CR8 (V_TPR) back into TPR and the guest's time before a register
 * access, the interrupt-window (VINTR) and IRET exits (APM vol 2 15.21.4,
 * 15.9), minhv's own single step over an NMI handler's IRET, and
 * IA32_TSC_DEADLINE. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/svm/exit.h"
#include "hv/svm/vlapic_vcpu.h"

#define V_TPR_MASK 0xfULL
#define V_IRQ BIT(8)
#define CLEAN_I BIT(0) /* intercepts (APM 15.15.3 table 15-9) */

static u64 guest_tsc(const struct vcpu *v)
{
	return rdtsc() + v->vmcb->control.tsc_offset;
}

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
	/* An access may change TPR, the timer or ISR: the next entry
	 * re-evaluates (V_TPR, injection, the host timer). */
	vlapic_entry_work(&v->lapic);
	vlapic_sync_tpr(v);
	v->lapic.now = guest_tsc(v);
	vlapic_timer_poll(&v->lapic, v->lapic.now);
}

void vlapic_sync_write(struct vcpu *v, u32 off)
{
	if (vlapic_write_needs_time(&v->lapic, off)) {
		vlapic_sync(v);
		return;
	}
	if (!guest_has_platform(v->guest))
		return;
	/* An EOI, ICR or TPR write: the entry re-evaluates; TPR from CR8
	 * first, so that a TPR write is not undone by an older CR8. */
	vlapic_entry_work(&v->lapic);
	vlapic_sync_tpr(v);
}

/* The interrupt window opened: the next VMRUN injects. V_IRQ changed
 * here, so its clean bit goes (APM 15.15.3): vlapic_inject_pending()
 * marks only what it changes itself. */
enum exit_action vlapic_exit_vintr(struct vcpu *v)
{
	v->vmcb->control.v_intr &= ~V_IRQ;
	vmcb_mark_dirty(v->vmcb, VMCB_CLEAN_TPR);
	vmcb_clr_intercept(v->vmcb, INTERCEPT_VINTR);
	vlapic_entry_work(&v->lapic);
	return EXIT_RESUME;
}

/* IRET with an NMI in service: it intercepts before it executes, so NMIs
 * stay blocked until RIP moves on. With another NMI pending, single-step
 * over the IRET (TF, as KVM does) so it is delivered right after it. */
enum exit_action vlapic_exit_iret(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;

	vmcb_clr_intercept(v->vmcb, INTERCEPT_IRET);
	v->vmcb->control.clean &= ~CLEAN_I;
	l->c.iret_wait = true;
	l->c.iret_rip = v->vmcb->save.rip;
	vlapic_entry_work(l); /* each entry checks RIP until it moves */
	if (__atomic_load_n(&l->nmi_pending, __ATOMIC_ACQUIRE) &&
	    !(v->vmcb->save.rflags & RFLAGS_TF)) {
		v->vmcb->save.rflags |= RFLAGS_TF;
		l->c.nmi_step = true;
	}
	return EXIT_RESUME;
}

bool vlapic_db_step(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;

	if (!guest_has_platform(v->guest) || !l->c.nmi_step)
		return false;
	l->c.nmi_step = false;
	/* IRET loaded RFLAGS from the stack, so our TF is gone already;
	 * the trap is ours, not the guest's. */
	v->vmcb->save.dr6 &= ~DR6_BS;
	return true;
}

int vlapic_tsc_deadline_msr(struct vcpu *v, bool wr, u64 *val)
{
	if (!guest_has_platform(v->guest))
		return 1;
	/* A write needs the time only to raise an armed deadline that
	 * passed before it is replaced. */
	if (!wr || v->lapic.timer_next)
		vlapic_sync(v);
	else
		vlapic_entry_work(&v->lapic); /* the host timer, injection */
	if (wr)
		vlapic_tsc_deadline_write(&v->lapic, *val);
	else
		*val = vlapic_tsc_deadline_read(&v->lapic);
	return 0;
}
