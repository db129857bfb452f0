// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/lapic_exit.c - the vLAPIC's side of a foreign guest's
 * entries and exits: events into the VMCB before VMRUN (an NMI through
 * EVENTINJ, fixed interrupts offered through V_IRQ, APM vol 2 15.20,
 * 15.21.4) and whether the CPU took the offer at the exit; CR8 (V_TPR)
 * back into TPR and the guest's time before a register access, the
 * interrupt-window (VINTR) and IRET exits (15.21.4, 15.9), minhv's own
 * single step over an NMI handler's IRET, and IA32_TSC_DEADLINE. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/platform/lapic.h"
#include "hv/svm/exit.h"

#define V_TPR_MASK 0xfULL
#define V_IRQ BIT(8)
#define V_INTR_PRIO(p) ((u64)(p) << 16)
#define V_IGN_TPR BIT(20)
#define V_INTR_VECTOR(v) ((u64)(v) << 32)
/* What an offer or a window sets, cleared again at each entry. */
#define V_OFFER (V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf) | V_INTR_VECTOR(0xff))
#define INT_SHADOW BIT(0) /* int_shadow (0x68) bit 0, APM 15.21.5 */
#define EVENTINJ_TYPE_MASK (7ULL << 8)
#define VEC_NMI 2
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
	vlapic_sync_tpr(v);
	v->lapic.now = guest_tsc(v);
	vlapic_timer_poll(&v->lapic, v->lapic.now);
}

/* Fixed interrupts go to the guest as virtual interrupts (APM 15.21.4),
 * not through EVENTINJ: QEMU's TCG (helper_vmrun(), svm_helper.c) delivers
 * an EVENTINJ of type INTR at once with do_interrupt_x86_hardirq() yet
 * leaves cs->exception_index set to the vector, and when the next thing
 * its loop sees is an exit request (an -icount slice end, a kick)
 * cpu_handle_exception() delivers the vector a second time, whatever
 * RFLAGS.IF says. V_IRQ goes through its ordinary interrupt path instead
 * (CPU_INTERRUPT_VIRQ, x86_cpu_exec_interrupt()), which is also what the
 * APM built it for: the CPU takes the vector when the guest has IF=1, no
 * interrupt shadow and V_INTR_PRIO above V_TPR (V_IGN_TPR=0: a CR8 write
 * the guest makes while the vector waits holds it back, as the TPR would
 * on the APIC), clears V_IRQ and delivers it; an IF=0 or shadow needs no
 * exit at all. NMIs stay on EVENTINJ (type NMI goes through
 * cpu_loop_exit() in QEMU and is not affected). The offered vector is
 * acknowledged only once vlapic_exit_offer() sees that the CPU took it.
 *
 * Every entry of a foreign guest, so the common case (no timer armed,
 * nothing posted, no window open, TPR unchanged) reads no TSC, scans no
 * IRR and leaves the VMCB clean bits as they are: fields are marked
 * dirty only when their value changes (APM 15.15.3: a field written after
 * the first VMRUN must have its clean bit cleared; V_TPR and V_IRQ as the
 * CPU wrote them back at #VMEXIT are what it holds already, and exit
 * handlers mark what they change), so an offer or window that stays the
 * same costs nothing. */
void vlapic_inject_pending(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	struct vmcb_control *c = &vm->control;
	struct vlapic *l = &v->lapic;
	const u64 v_intr = c->v_intr;
	/* V_INTR_PRIO/VECTOR of a vector the CPU took (it clears V_IRQ
	 * only) are inert without V_IRQ: left as they are, not a change. */
	u64 off = v_intr & (V_INTR_PRIO(0xf) | V_INTR_VECTOR(0xff)), now = 0;
	unsigned ev = 0;
	u8 vec = 0;

	if (!guest_has_platform(v->guest))
		return;
	if (c->exit_code == VMEXIT_INTR)
		l->c.host_at = 0; /* the watchdog may have re-armed it */
	vlapic_sync_tpr(v); /* CR8 -> TPR */
	/* Expired timers; the time is needed only when one is armed. */
	if (l->timer_next) {
		now = rdtsc();
		vlapic_timer_poll(l, now + c->tsc_offset);
	}
	if (vmcb_has_intercept(vm, INTERCEPT_VINTR))
		vmcb_clr_intercept(vm, INTERCEPT_VINTR);
	/* The NMI handler's IRET has retired once RIP moved on. */
	if (l->c.iret_wait && vm->save.rip != l->c.iret_rip)
		l->c.nmi_masked = l->c.iret_wait = false;
	/* A re-injected event (EXITINTINFO) or a handler's is in EVENTINJ
	 * already: an NMI waits for it, an offered vector comes after it.
	 * Nothing posted: nothing to inject, no window to open. */
	if (vlapic_event_maybe(l))
		ev = vlapic_next_event(l, c->int_shadow & INT_SHADOW,
				       c->event_inj & EVENTINJ_VALID, &vec);
	if (ev & VLAPIC_INJ_NMI) {
		c->event_inj = VEC_NMI | EVENTINJ_TYPE_NMI | EVENTINJ_VALID;
		vmcb_set_intercept(vm, INTERCEPT_IRET); /* watch for IRET */
	}
	if (ev & VLAPIC_INJ_INTR)
		off = V_IRQ | V_INTR_PRIO(vec >> 4) | V_INTR_VECTOR(vec);
	if (ev & VLAPIC_INJ_WINDOW) {
		/* Exit as soon as the guest can take an interrupt (IF=1, no
		 * shadow, the injected event delivered): then the NMI. */
		off = V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf);
		vmcb_set_intercept(vm, INTERCEPT_VINTR);
	}
	/* Last entry's offer or window is replaced (or dropped) whole. */
	l->c.vtpr = (l->tpr >> 4) & 0xf;
	c->v_intr = (v_intr & ~(V_OFFER | V_TPR_MASK)) | off | l->c.vtpr;
	if (c->v_intr != v_intr)
		vmcb_mark_dirty(vm, VMCB_CLEAN_TPR);
	if (l->timer_next)
		vlapic_host_timer_arm(v, now);
}

/* The CPU clears V_IRQ when it takes the virtual interrupt (APM 15.21.4;
 * QEMU: x86_cpu_exec_interrupt() clears V_IRQ_MASK in int_ctl, which
 * #VMEXIT writes back), so V_IRQ clear at the exit means the guest got the
 * vector: IRR -> ISR now, before any handler reads ISR, PPR or IRR, takes
 * an EOI or decides whether HLT wakes. Still set: not taken (IF=0, a
 * shadow, V_TPR), back into IRR for the next entry to offer again,
 * unless a higher vector came meanwhile. An exit in the middle of taking
 * it (a #NPF on the IDT or the stack) leaves it in EXITINTINFO as type
 * INTR (APM 15.7.2), with V_IRQ clear on hardware but still set in QEMU,
 * which clears it only after a delivery that completed: either way it was
 * not delivered, so it is not acknowledged and not re-injected through
 * EVENTINJ (the path this avoids) but offered again like any other. */
void vlapic_exit_offer(struct vcpu *v)
{
	struct vmcb_control *c = &v->vmcb->control;
	struct vlapic *l = &v->lapic;
	const u64 ii = c->exit_int_info;

	if ((ii & EVENTINJ_VALID) &&
	    (ii & EVENTINJ_TYPE_MASK) == EVENTINJ_TYPE_INTR &&
	    (u8)ii == (u8)l->c.offer) {
		c->exit_int_info = ii & ~(u64)EVENTINJ_VALID;
		vlapic_offer_done(l, false);
		return;
	}
	vlapic_offer_done(l, !(c->v_intr & V_IRQ));
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
	vlapic_sync(v);
	if (wr)
		vlapic_tsc_deadline_write(&v->lapic, *val);
	else
		*val = vlapic_tsc_deadline_read(&v->lapic);
	return 0;
}
