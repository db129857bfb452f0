// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/event_inject.c - the events of the exit path that are not the
 * vLAPIC's: EXITINTINFO re-injected before any handler runs (APM vol 2
 * 15.7.2), a software interrupt's return address for it, and an exception
 * a handler raised while that event was pending, held for the next entry.
 * All of it rare (an exit in the middle of a delivery): cold, built for
 * size. */
#include "arch/vectors.h"
#include "hv/emul/decode.h"
#include "hv/emul/walk.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "hv/smp/ipi.h"
#include "hv/svm/exit.h"
#include "hv/vlapic/vlapic.h"

/* The length of the INTn (CD ib), INT3 (CC) or INTO (CE) at CS:RIP that
 * raised EXITINTINFO's soft event, prefixes included; 0 when the bytes
 * there are not that instruction (the guest changed them, or they could
 * not be fetched). */
static __attribute__((cold)) unsigned soft_insn_len(struct vcpu *v, u64 type,
						    u8 vec)
{
	const struct vmcb_save *s = &v->vmcb->save;
	struct gmem m = { v->guest->mem_host, v->guest->mem_size };
	struct gpaging p = gpaging_of(v->vmcb);
	bool long64 = (s->efer & EFER_LMA) && (s->cs.attrib & SEG_ATTR_L);
	u64 la = long64 ? s->rip : (s->cs.base + s->rip) & 0xffffffffULL;
	u8 b[INSN_MAX_LEN];
	int n = gfetch(&m, &p, la, b, sizeof(b));
	struct insn_prefixes pf;
	unsigned i;

	/* Prefixes are legal, if pointless, on these (16-bit code scans
	 * like 32-bit: no REX). */
	if (n <= 0 || insn_prefixes(b, (unsigned)n,
				    long64 ? INSN_MODE64 : INSN_MODE32, &pf))
		return 0;
	i = pf.len;
	if (type == EVENTINJ_TYPE_SOFT)
		return b[i] == 0xcd && i + 1 < (unsigned)n && b[i + 1] == vec ?
			       i + 2 :
			       0;
	return b[i] == (vec == VEC_BP ? 0xcc : 0xce) ? i + 1 : 0;
}

/* INTn (type 4), and INT3/INTO, which SVM reports as exceptions (type 3,
 * vector 3 or 4): the frame the CPU pushes for an injected one holds
 * NEXT_RIP with NRIP (15.7.1; else RIP, which is then moved past the
 * instruction), and the exit that interrupted the delivery left neither
 * set (KVM: svm_update_soft_interrupt_rip()). RIP is still at the
 * instruction: its length gives the return address. false: not
 * re-injected; RIP stays on the instruction, which raises the event again
 * when the guest re-executes it (Xen's rule for every soft event). */
static __attribute__((cold)) bool soft_event_rip(struct vcpu *v, u64 type,
						 u8 vec)
{
	struct vmcb_save *s = &v->vmcb->save;
	unsigned len = soft_insn_len(v, type, vec);
	u64 next = s->rip + len;

	if (!len)
		return false;
	if (!((s->efer & EFER_LMA) && (s->cs.attrib & SEG_ATTR_L)))
		next &= (s->cs.attrib & SEG_ATTR_D) ? 0xffffffffULL : 0xffffULL;
	if (g_features.nrips)
		v->vmcb->control.next_rip = next;
	else
		s->rip = next;
	return true;
}

/* EXITINTINFO has EVENTINJ's layout (vector, type, EV, V, error code in
 * 63:32). Only V (bit 31) is tested: QEMU leaves other bits set with
 * V=0. */
__attribute__((cold)) void vcpu_reinject_event(struct vcpu *v)
{
	struct vmcb_control *c = &v->vmcb->control;
	u64 e = c->exit_int_info, type = e & EVENTINJ_TYPE_MASK;
	u8 vec = (u8)e;

	if (!(e & EVENTINJ_VALID))
		return;
	/* A fixed interrupt is only ever a V_IRQ offer, in service since
	 * the entry (QEMU's form, V_IRQ still set, was given back by
	 * vlapic_exit_offer() already: a second give-back changes
	 * nothing). Not delivered: back into IRR and offered again, never
	 * EVENTINJ (docs/GUESTS.md "Interrupts"). */
	if (type == EVENTINJ_TYPE_INTR && guest_has_platform(v->guest)) {
		vlapic_unack(&v->lapic, vec);
		return;
	}
	if ((type == EVENTINJ_TYPE_SOFT ||
	     (type == EVENTINJ_TYPE_EXCEPTION &&
	      (vec == VEC_BP || vec == VEC_OF))) &&
	    !soft_event_rip(v, type, vec))
		return;
	c->event_inj = e;
}

__attribute__((cold)) void vcpu_inject_queued(struct vcpu *v)
{
	struct vmcb_control *c = &v->vmcb->control;

	if (c->event_inj & EVENTINJ_VALID) {
		/* The re-injected event goes first: make the guest exit as
		 * soon as it is delivered (injection precedes interrupt
		 * recognition, APM 15.20), then this one follows. */
		ipi_self_kick();
		return;
	}
	c->event_inj = v->queued_event;
	v->queued_event = 0;
}
