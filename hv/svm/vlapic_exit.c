// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vlapic_exit.c - the vLAPIC's side of a foreign guest's
 * exits: CR8 (V_TPR) back into TPR and the guest's time before a register
 * access, a V_IRQ offer not taken, the IRET and CR8-write exits (APM vol
 * 2 15.21.4, 15.9), minhv's own single step for an NMI window (ended,
 * with the guest's TF back, when the stepped instruction faults), and
 * IA32_TSC_DEADLINE. */
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/vmcb.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "hv/guest/mmio.h"
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

void vlapic_sync_read(struct vcpu *v)
{
	if (!guest_has_platform(v->guest))
		return;
	vlapic_sync_tpr(v);
	/* The bus clock runs on the host TSC; the guest's TSC (for
	 * TSC-deadline mode) is that plus its offset. A timer that fires
	 * here posts its vector: the IRR summary makes the next entry
	 * inject it and arm the next period. */
	v->lapic.tsc_offset = v->vmcb->control.tsc_offset;
	v->lapic.now = rdtsc();
	vlapic_timer_poll(&v->lapic, v->lapic.now);
}

void vlapic_sync(struct vcpu *v)
{
	if (!guest_has_platform(v->guest))
		return;
	/* An access may change TPR, the timer or ISR: the next entry
	 * re-evaluates (V_TPR, injection, the host timer). */
	vlapic_entry_work(&v->lapic);
	vlapic_sync_read(v);
}

void vlapic_sync_write(struct vcpu *v, u32 off)
{
	if (vlapic_write_needs_time(&v->lapic, off)) {
		vlapic_sync(v);
		return;
	}
	if (!guest_has_platform(v->guest))
		return;
	/* An ICR or TPR write: the entry re-evaluates; an EOI changes only
	 * ISR, which matters only with a vector in IRR (its summary bit asks
	 * for the entry then). TPR from CR8 first, so that a TPR write is not
	 * undone by an older CR8. */
	if (off != APIC_REG_EOI)
		vlapic_entry_work(&v->lapic);
	vlapic_sync_tpr(v);
}

/* The CPU clears V_IRQ when it takes the virtual interrupt (APM vol 2
 * 15.21.4; QEMU: x86_cpu_exec_interrupt()), and #VMEXIT writes it back;
 * minhv sets V_IRQ for nothing but an offer (vlapic_inject.c). Still set
 * at the exit: not taken (IF=0, a shadow, V_TPR raised by the guest, or
 * no instruction boundary before the exit). The offered vector (its
 * V_INTR_VECTOR), in service since the entry, goes back into IRR and
 * V_IRQ is withdrawn; the next entry offers the highest vector again, a
 * newer higher one first. An interrupted delivery (EXITINTINFO type INTR:
 * V_IRQ still set in QEMU, which clears it only after a delivery that
 * completed, clear on hardware) is vcpu_reinject_event()'s: the same
 * give-back, which finds nothing more to do after this one. */
void vlapic_exit_offer(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;

	vmcb_set_v_intr(vm, vm->control.v_intr & ~V_IRQ);
	vlapic_unack(&v->lapic, (u8)(vm->control.v_intr >> 32));
}

/* IRET with an NMI in service: it intercepts before it executes, so NMIs
 * stay blocked until RIP moves on (vlapic_inject_pending() sees that). An
 * NMI pending now or posted later gets its window at every entry until
 * then: a single step over the IRET (hv/svm/vlapic_inject.c). */
enum exit_action vlapic_exit_iret(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;

	vmcb_clr_intercept(v->vmcb, INTERCEPT_IRET);
	l->c.iret_wait = true;
	l->c.iret_rip = v->vmcb->save.rip;
	vlapic_entry_work(l); /* each entry checks RIP until it moves */
	return EXIT_RESUME;
}

/* MOV to CR8 (or LOCK MOV CR0 with AltMovCr8) while the CR8-write
 * intercept is on: the write did not happen. The source register comes
 * from the decode assist (EXITINFO1[63] valid, [3:0] the GPR, APM 15.33.1)
 * with NEXT_RIP, else from the instruction's bytes. Bits 63:4 set: #GP(0)
 * (SDM vol 3A 2.5, APM vol 2 3.1.5). */
__attribute__((cold)) enum exit_action vlapic_exit_cr8(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	struct vlapic *l = &v->lapic;
	struct mmio_bytes b;
	struct insn in;
	u64 val, next;
	unsigned reg;

	if (g_features.decode_assists && g_features.nrips &&
	    (vm->control.exit_info1 & BIT(63)) && vm->control.next_rip) {
		reg = vm->control.exit_info1 & 0xf;
		next = vm->control.next_rip;
	} else if (!emul_decode_at_rip(v, &b, &in) &&
		   in.kind == INSN_MOV_TO_CR && in.cr == 8) {
		reg = in.reg;
		next = vm->save.rip + in.len;
		if (in.size == 4)
			next &= 0xffffffffULL;
	} else {
		vcpu_stop_guest(v, -1, true,
				"vCPU %u: CR8 write at RIP %#llx not decoded",
				v->id, (unsigned long long)vm->save.rip);
		return EXIT_LEAVE;
	}
	val = *vcpu_gpr(v, reg);
	if (val >> 4) {
		vcpu_inject_exception(v, VEC_GP, true, 0);
		return EXIT_RESUME;
	}
	l->tpr = (u32)val << 4;
	l->c.vtpr = (u8)val;
	vlapic_entry_work(l); /* the interrupt TPR held back */
	vmcb_set_v_intr(vm, (vm->control.v_intr & ~V_TPR_MASK) | val);
	vcpu_insn_complete(v, next);
	return EXIT_RESUME;
}

bool vlapic_db_step(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;

	if (!guest_has_platform(v->guest) || !l->c.nmi_step)
		return false;
	/* The trap is ours, not the guest's: our TF (and RF) out again. DR6
	 * is cached (DRX clean bit, APM 15.15.3): the setter marks it, or a
	 * CPU with clean bits (and nested KVM) would keep the stale BS. */
	vcpu_nmi_step_end(v);
	vmcb_set_dr6(v->vmcb, v->vmcb->save.dr6 & ~DR6_BS);
	vlapic_entry_work(l); /* the NMI the step waited for */
	return true;
}

__attribute__((cold)) bool vlapic_step_fault(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	u8 vec = (u8)(vm->control.exit_code - VMEXIT_EXCP_BASE);

	if (!guest_has_platform(v->guest) || !v->lapic.c.nmi_step)
		return false;
	/* The stepped instruction faulted (RIP still on it): the fault goes
	 * to the guest as the CPU raised it, with the guest's TF and RF in
	 * its frame (AUDIT B2: an IRET with a bad frame leaked our TF, and
	 * the guest took a spurious #DB after its handler). */
	vcpu_nmi_step_end(v);
	if (vec == VEC_PF)
		vmcb_set_cr2(vm, vm->control.exit_info2);
	vcpu_inject_exception(v, vec, true, (u32)vm->control.exit_info1);
	vlapic_entry_work(&v->lapic); /* the NMI the step waited for */
	return true;
}

int vlapic_tsc_deadline_msr(struct vcpu *v, bool wr, u64 *val)
{
	if (!guest_has_platform(v->guest))
		return E_NOT_MINE;
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

bool vlapic_tsc_deadline_now(struct vcpu *v, u64 val)
{
	struct vmcb *vm = v->vmcb;
	struct vmcb_control *c = &vm->control;
	u64 off = c->tsc_offset, vi;
	int vec;

	if (v->queued_event || (vm->control.event_inj & EVENTINJ_VALID) ||
	    (vm->save.rflags & (RFLAGS_IF | RFLAGS_TF)) != RFLAGS_IF)
		return false;
	vlapic_sync_tpr(v); /* PPR from the guest's CR8 */
	vec = vlapic_tsc_deadline_fire_now(&v->lapic, val, rdtsc() + off);
	if (vec < 0)
		return false;
	v->lapic.tsc_offset = off;
	/* After the WRMSR (its interrupt shadow, if any, ends with it):
	 * offered through V_IRQ, as vlapic_inject_pending() offers (not
	 * EVENTINJ, which QEMU TCG can deliver twice), and settled at the
	 * next exit (vlapic_exit_offer()). V_TPR is TPR already (synced
	 * above, nothing changed it), below the vector's class. */
	vcpu_step_known(v, 2);
	/* A storm of these needs no host interrupt (vcpu_self_event());
	 * the count is the timer's own. */
	if (__builtin_expect(!(v->lapic.fired % VCPU_SELF_TICK), 0))
		__atomic_store_n(&v->tick, 1, __ATOMIC_RELAXED);
	/* The CPU clears only V_IRQ when it takes an offer: the vector and
	 * priority of the last one (this timer's, as a rule) are still
	 * there. */
	vi = vm->control.v_intr;
	if ((u8)(vi >> 32) != (u8)vec)
		vi = vlapic_offer_bits(vi, (u8)vec);
	/* V_IRQ was clear (settled at this exit): a change, marked as
	 * vlapic_inject_pending() marks its own. */
	c->v_intr = vi | V_IRQ;
	vmcb_mark_dirty(vm, VMCB_CLEAN_TPR);
	return true;
}
