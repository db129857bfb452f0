// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic_irq.c - the vLAPIC's interrupt state: IRR, ISR and TMR,
 * processor priority and EOI (SDM vol 3 11.8.3-11.8.5, APM 16.6). IRR bits
 * are set by any CPU with an atomic OR; everything else is the owner's. */
#include "arch/errno.h"
#include "hv/vlapic/vlapic.h"

/* The number of the highest bit set in bits[0..7], or -1 when none is. */
static int highest(const u32 *bits, bool atomic)
{
	for (int i = 7; i >= 0; i--) {
		u32 w = atomic ? __atomic_load_n(&bits[i], __ATOMIC_ACQUIRE) :
				 bits[i];

		if (w)
			return i * 32 + 31 - __builtin_clz(w);
	}
	return -1;
}

void vlapic_set_irr(struct vlapic *l, u8 vector, bool level)
{
	u32 bit = 1u << (vector & 31);

	/* TMR is the target's own, but only written here for level IPIs,
	 * which kvm-unit-tests and Linux never send; atomic all the same. */
	if (level)
		__atomic_fetch_or(&l->tmr[vector >> 5], bit, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&l->tmr[vector >> 5], ~bit,
				   __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&l->irr[vector >> 5], bit, __ATOMIC_SEQ_CST);
	/* After the IRR bit: vlapic_irr_maybe() relies on the order. */
	__atomic_fetch_or(&l->pending, VLAPIC_PEND_IRR, __ATOMIC_SEQ_CST);
}

/* SDM 11.8.3.1: PPR = TPR when TPR[7:4] >= ISRV[7:4], else ISRV[7:4]. */
u32 vlapic_ppr(const struct vlapic *l)
{
	int isrv = highest(l->isr, false);
	u32 isr_class = isrv < 0 ? 0 : (u32)isrv & 0xf0;

	return (l->tpr & 0xf0) >= isr_class ? l->tpr & 0xff : isr_class;
}

int vlapic_pending_vector(const struct vlapic *l)
{
	int v = highest(l->irr, true);

	if (v < 0 || !(l->svr & APIC_SVR_ENABLE))
		return -ENOENT;
	/* Only a higher priority class than PPR gets through (11.8.3). */
	if (((u32)v & 0xf0) <= (vlapic_ppr(l) & 0xf0))
		return -ENOENT;
	return v;
}

__attribute__((cold)) bool vlapic_tpr_holds(const struct vlapic *l)
{
	int v = highest(l->irr, true), isrv = highest(l->isr, false);
	u32 cls;

	if (v < 0 || !(l->svr & APIC_SVR_ENABLE))
		return false;
	cls = (u32)v & 0xf0;
	return cls > (isrv < 0 ? 0 : ((u32)isrv & 0xf0)) &&
	       cls <= (l->tpr & 0xf0);
}

bool vlapic_irr_any(const struct vlapic *l)
{
	return highest(l->irr, true) >= 0;
}

/* The summary bit is cleared before IRR is looked at again, both SEQ_CST:
 * a vector whose IRR bit that second look misses was set after it, so its
 * poster's summary OR (which follows its IRR OR) comes after our clear and
 * the bit stays set. A vector the look sees keeps the bit set. */
bool vlapic_irr_maybe(struct vlapic *l)
{
	if (!(__atomic_load_n(&l->pending, __ATOMIC_ACQUIRE) & VLAPIC_PEND_IRR))
		return false;
	if (vlapic_irr_any(l))
		return true;
	__atomic_fetch_and(&l->pending, ~VLAPIC_PEND_IRR, __ATOMIC_SEQ_CST);
	if (!vlapic_irr_any(l))
		return false;
	__atomic_fetch_or(&l->pending, VLAPIC_PEND_IRR, __ATOMIC_SEQ_CST);
	return true;
}

void vlapic_ack(struct vlapic *l, u8 vector)
{
	u32 bit = 1u << (vector & 31);

	__atomic_fetch_and(&l->irr[vector >> 5], ~bit, __ATOMIC_SEQ_CST);
	l->isr[vector >> 5] |= bit;
}

void vlapic_eoi(struct vlapic *l)
{
	int v = highest(l->isr, false);

	if (v < 0)
		return; /* nothing in service: ignored */
	l->isr[v >> 5] &= ~(1u << (v & 31));
	/* A level interrupt's EOI would go to the I/O APIC; there is none. */
	__atomic_fetch_and(&l->tmr[v >> 5], ~(1u << (v & 31)),
			   __ATOMIC_SEQ_CST);
}

bool vlapic_wakeup(const struct vlapic *l, bool if_on)
{
	if (__atomic_load_n(&l->nmi_pending, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&l->init_pending, __ATOMIC_ACQUIRE))
		return true;
	return if_on && vlapic_pending_vector(l) >= 0;
}

int vlapic_take_startup(struct vlapic *l)
{
	u32 s;

	/* Summary first, then the events (struct vlapic's rule): one posted
	 * after the exchanges below sets the bit again. */
	__atomic_fetch_and(&l->pending, ~VLAPIC_PEND_START, __ATOMIC_SEQ_CST);
	if (__atomic_exchange_n(&l->init_pending, 0, __ATOMIC_SEQ_CST))
		vlapic_init_reset(l);
	s = __atomic_exchange_n(&l->sipi, 0, __ATOMIC_SEQ_CST);
	if (!l->wait_sipi || !(s & VLAPIC_SIPI_PENDING))
		return -ENOENT;
	l->wait_sipi = false;
	return (int)(s & 0xff);
}

unsigned vlapic_next_event(struct vlapic *l, bool if_on, bool shadow, bool busy,
			   u8 *vec)
{
	/* With its summary bit clear no NMI was posted (struct vlapic): no
	 * locked exchange on the entry path of a guest without NMIs. */
	bool nmi = __atomic_load_n(&l->pending, __ATOMIC_ACQUIRE) &
		   VLAPIC_PEND_NMI;
	unsigned r = 0;
	int v;

	/* An interrupt shadow (STI, MOV SS) holds NMIs too (SDM 6.8.3). */
	if (nmi && !busy && !shadow && !l->c.nmi_masked) {
		/* The summary bit before the event, as for IRR. */
		__atomic_fetch_and(&l->pending, ~VLAPIC_PEND_NMI,
				   __ATOMIC_SEQ_CST);
		if (__atomic_exchange_n(&l->nmi_pending, 0, __ATOMIC_SEQ_CST)) {
			/* Blocked until IRET (SDM 6.7.1). */
			l->c.nmi_masked = true;
			r |= VLAPIC_INJ_NMI;
			busy = true;
		}
	}
	/* Held by the shadow, another event, or an IRET that has not
	 * retired: a window once it is over, whatever IF says (a guest
	 * spinning in STI, or in an interrupt handler with IF=0, would
	 * otherwise never see it). */
	if (nmi && !(r & VLAPIC_INJ_NMI) &&
	    (!l->c.nmi_masked || l->c.iret_wait) &&
	    __atomic_load_n(&l->nmi_pending, __ATOMIC_ACQUIRE))
		r |= VLAPIC_INJ_NMI_WINDOW;
	/* Nothing posted since IRR was last seen empty: no scan. */
	if (!vlapic_irr_maybe(l))
		return r;
	v = vlapic_pending_vector(l);
	if (v < 0)
		return vlapic_tpr_holds(l) ? r | VLAPIC_INJ_TPR : r;
	*vec = (u8)v;
	if (busy || shadow || !if_on)
		return r | VLAPIC_INJ_WINDOW;
	vlapic_ack(l, (u8)v);
	return r | VLAPIC_INJ_INTR;
}
