// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vlapic_inject.c - a foreign guest's vLAPIC events into its VMCB
 * before each VMRUN (APM vol 2 15.20 EVENTINJ, 15.21.4 V_IRQ): NMIs,
 * blocked until their IRET retires, and their window (a single step, or
 * an exit right after an injected event, as KVM's
 * svm_enable_nmi_window()); fixed interrupts offered through V_IRQ and
 * settled at the exit (vlapic_exit_offer()); V_TPR, and the CR8-write
 * intercept while TPR alone holds an interrupt back. */
#include "arch/cr.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/smp/ipi.h"
#include "hv/svm/exit.h"
#include "hv/svm/vlapic_vcpu.h"

/* An NMI is pending and cannot be injected now: an interrupt shadow, an
 * event injected at this entry, or its predecessor's IRET not retired.
 * IF does not hold NMIs back, so V_IRQ (which waits for IF=1) is no
 * window for them. With an event in EVENTINJ a step would push our TF
 * into that event's frame: exit as soon as it is delivered instead (a
 * self IPI). Otherwise single-step one instruction (TF|RF): the #DB, or
 * the exit of the instruction, comes at the boundary where the NMI can
 * go. A guest that single-steps itself traps there anyway. */
static __attribute__((cold)) void nmi_window(struct vcpu *v)
{
	struct vmcb_save *s = &v->vmcb->save;
	struct vlapic *l = &v->lapic;

	if (v->vmcb->control.event_inj & EVENTINJ_VALID) {
		ipi_self_kick();
		return;
	}
	if (l->c.nmi_step || (s->rflags & RFLAGS_TF))
		return;
	l->c.nmi_step_rf = s->rflags & RFLAGS_RF;
	s->rflags |= RFLAGS_TF | RFLAGS_RF;
	l->c.nmi_step = true;
	/* A stepped instruction that faults (an IRET with a bad frame)
	 * would push our TF into its handler's frame: its faults exit
	 * (vlapic_step_fault()) until the step ends. */
	vcpu_step_faults_intercept(v->vmcb, true);
}

/* An entry of a foreign guest with something to do (vlapic_entry_maybe():
 * an event posted, or VLAPIC_PEND_LOCAL: an exit touched the vLAPIC, the
 * host timer fired, an NMI's IRET or window is pending, a fresh or reset
 * vCPU); the run loop skips the call otherwise. A quiet entry changes
 * nothing here: TPR only moves by CR8 (V_TPR, synced before anything
 * reads TPR: an access, an injection decision, HLT), and a guest timer
 * is polled when its host timer fires (or an access syncs it). The
 * common case with work (no timer armed, nothing posted, no window open,
 * TPR unchanged) reads no TSC, scans no IRR and leaves the VMCB clean
 * bits as they are. The VMCB fields it writes are marked dirty only when
 * their value changes (APM vol 2 15.15.3: a field written after the
 * first VMRUN must have its clean bit cleared; V_TPR and V_IRQ as the
 * CPU wrote them back at #VMEXIT are what it holds already, and exit
 * handlers mark what they change). */
void vlapic_inject_pending(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	struct vmcb_control *c = &vm->control;
	struct vlapic *l = &v->lapic;
	const u64 v_intr = c->v_intr;
	u64 vi = v_intr; /* written back once, at the end */
	u64 now = 0, poll;
	unsigned ev;
	u8 vec = 0;

	if (!guest_has_platform(v->guest))
		return;
	/* Owner-only bit, other CPUs OR in theirs: cleared before the
	 * state it stands for is looked at. */
	if (__atomic_load_n(&l->pending, __ATOMIC_RELAXED) & VLAPIC_PEND_LOCAL)
		__atomic_fetch_and(&l->pending, ~VLAPIC_PEND_LOCAL,
				   __ATOMIC_RELAXED);
	if (c->exit_code == VMEXIT_INTR)
		l->c.host_at = 0; /* the watchdog may have re-armed it */
	vlapic_sync_tpr(v); /* CR8 -> TPR */
	/* Expired timers; the time is needed only when one is armed. */
	if (l->timer_next) {
		now = rdtsc();
		l->tsc_offset = c->tsc_offset;
		vlapic_timer_poll(l, now);
	}
	/* The NMI handler's IRET has retired once RIP moved on. */
	if (l->c.iret_wait && vm->save.rip != l->c.iret_rip)
		l->c.nmi_masked = l->c.iret_wait = false;
	/* V_IRQ set here is an offer the exit handler made
	 * (vlapic_tsc_deadline_now(); the exit's own was settled at the
	 * exit), with something posted since: given back, and the highest
	 * is offered. */
	if (__builtin_expect(vi & V_IRQ, 0)) {
		vlapic_unack(l, (u8)(vi >> 32));
		vi &= ~V_IRQ;
	}
	/* A re-injected event (EXITINTINFO) or a handler's goes first.
	 * Nothing posted: nothing to inject, no window to open. */
	ev = 0;
	if (vlapic_event_maybe(l))
		ev = vlapic_next_event(l, c->int_shadow & INT_SHADOW,
				       c->event_inj & EVENTINJ_VALID, &vec);
	if (ev & VLAPIC_INJ_NMI) {
		c->event_inj = VEC_NMI | EVENTINJ_TYPE_NMI | EVENTINJ_VALID;
		vmcb_set_intercept(vm, INTERCEPT_IRET); /* watch for IRET */
	}
	if (ev & VLAPIC_INJ_NMI_WINDOW)
		nmi_window(v);
	/* A step still armed while an event goes in (it exited before the
	 * stepped instruction ran): our TF must not land in that event's
	 * frame, where the guest's IRET would keep it. */
	if (__builtin_expect(l->c.nmi_step, 0) &&
	    (c->event_inj & EVENTINJ_VALID))
		vcpu_nmi_step_end(v);
	/* The interrupt, acknowledged into ISR, is offered as a virtual
	 * interrupt: the CPU takes it once IF=1, no shadow, V_TPR below its
	 * class and any EVENTINJ delivered (APM 15.20, 15.21.4), and clears
	 * V_IRQ; vlapic_exit_offer() settles it at the exit, before any
	 * handler. Not through EVENTINJ: QEMU TCG delivers an EVENTINJ'd
	 * interrupt in helper_vmrun() but leaves its vector in
	 * exception_index, and an exit request before the next exception
	 * delivers it a second time whatever IF says (docs/GUESTS.md). With
	 * minhv's NMI-window step armed it waits: taken before the stepped
	 * instruction, its frame would hold our TF. */
	if (ev & VLAPIC_INJ_INTR) {
		if (__builtin_expect(l->c.nmi_step, 0))
			vlapic_unack(l, vec);
		else
			vi = vlapic_offer_bits(vi, vec) | V_IRQ;
	}
	/* TPR alone holds an interrupt back: a CR8 write that lowers it
	 * must exit (KVM's svm_update_cr8_intercept(); V_TPR writes do not
	 * exit on their own), else the interrupt waits for an unrelated
	 * exit (vlapic_exit.c). */
	if (!(ev & VLAPIC_INJ_TPR) !=
	    !vmcb_has_intercept(vm, INTERCEPT_CR_WRITE(8))) {
		if (ev & VLAPIC_INJ_TPR)
			vmcb_set_intercept(vm, INTERCEPT_CR_WRITE(8));
		else
			vmcb_clr_intercept(vm, INTERCEPT_CR_WRITE(8));
	}
	l->c.vtpr = (l->tpr >> 4) & 0xf;
	vi = (vi & ~V_TPR_MASK) | l->c.vtpr;
	if (vi != v_intr) {
		c->v_intr = vi;
		vmcb_mark_dirty(vm, VMCB_CLEAN_TPR);
	}
	/* vCPU 0 also arms for the platform's poll (vlapic_platform_tick()),
	 * reading the TSC only when the host timer is not armed for that
	 * moment already. */
	poll = v->id ? 0 : v->guest->plat.poll_at;
	if (l->timer_next || (poll && (!l->c.host_at || l->c.host_at > poll)))
		vlapic_host_timer_rearm(v, now ? now : rdtsc());
	/* An NMI's IRET not yet retired, or its window's step armed: every
	 * entry looks again until they are over. */
	if (l->c.iret_wait || l->c.nmi_step)
		vlapic_entry_work(l);
}
