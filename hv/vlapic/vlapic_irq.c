// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic_irq.c - the vLAPIC's interrupt state: IRR, ISR and TMR,
 * processor priority and EOI (SDM vol 3 11.8.3-11.8.5, APM 16.6). IRR bits
 * are set by any CPU with an atomic OR; everything else is the owner's. */
#include "arch/errno.h"
#include "hv/vlapic/vlapic.h"

/* The highest vector in IRR, -1 none: IRR read as four 64-bit words
 * (x86 is little-endian: vector v is bit v % 64 of word v / 64), each
 * load atomic against the posters' ORs. */
static int highest_irr(const struct vlapic *l)
{
	for (int i = 3; i >= 0; i--) {
		u64 w = __atomic_load_n(&l->irr64[i], __ATOMIC_ACQUIRE);

		if (w)
			return i * 64 + 63 - __builtin_clzll(w);
	}
	return -1;
}

/* IRR empty: the four words ORed, no scan (each load atomic, as in
 * highest_irr()). Cheaper than highest_irr() < 0 on the injection path,
 * where IRR is usually empty once its one vector is acked. */
static bool irr_empty(const struct vlapic *l)
{
	return !(__atomic_load_n(&l->irr64[0], __ATOMIC_ACQUIRE) |
		 __atomic_load_n(&l->irr64[1], __ATOMIC_ACQUIRE) |
		 __atomic_load_n(&l->irr64[2], __ATOMIC_ACQUIRE) |
		 __atomic_load_n(&l->irr64[3], __ATOMIC_ACQUIRE));
}

/* The highest vector in service, -1 none: the owner keeps which ISR
 * words are non-zero (isr_words), so no scan. */
static int highest_isr(const struct vlapic *l)
{
	int i;

	if (!l->isr_words)
		return -1;
	i = 31 - __builtin_clz(l->isr_words);
	return i * 32 + 31 - __builtin_clz(l->isr[i]);
}

void vlapic_set_irr(struct vlapic *l, u8 vector, bool level)
{
	u32 bit = 1u << (vector & 31);

	/* TMR is set as the vector is accepted (SDM 11.8.4): by the I/O
	 * APIC's level-triggered messages from any CPU, hence atomic. */
	if (level)
		__atomic_fetch_or(&l->tmr[vector >> 5], bit, __ATOMIC_SEQ_CST);
	else if (__atomic_load_n(&l->tmr[vector >> 5], __ATOMIC_ACQUIRE) &
		 bit) /* usually clear: no locked op (a level post racing
		       * with this one orders as if it came after) */
		__atomic_fetch_and(&l->tmr[vector >> 5], ~bit,
				   __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&l->irr[vector >> 5], bit, __ATOMIC_SEQ_CST);
	/* After the IRR bit: vlapic_irr_maybe() relies on the order. */
	__atomic_fetch_or(&l->pending, VLAPIC_PEND_IRR, __ATOMIC_SEQ_CST);
}

/* SDM 11.8.3.1: PPR = TPR when TPR[7:4] >= ISRV[7:4], else ISRV[7:4]. */
u32 vlapic_ppr(const struct vlapic *l)
{
	int isrv = highest_isr(l);
	u32 isr_class = isrv < 0 ? 0 : (u32)isrv & 0xf0;

	return (l->tpr & 0xf0) >= isr_class ? l->tpr & 0xff : isr_class;
}

/* v, the highest vector in IRR (-1 none), if it gets through to the
 * CPU, else -ENOENT: the APIC enabled, and only a higher priority class
 * than PPR (11.8.3). */
static int deliverable(const struct vlapic *l, int v)
{
	if (v < 0 || !(l->svr & APIC_SVR_ENABLE))
		return -ENOENT;
	if (((u32)v & 0xf0) <= (vlapic_ppr(l) & 0xf0))
		return -ENOENT;
	return v;
}

int vlapic_pending_vector(const struct vlapic *l)
{
	return deliverable(l, highest_irr(l));
}

__attribute__((cold)) bool vlapic_tpr_holds(const struct vlapic *l)
{
	int v = highest_irr(l), isrv = highest_isr(l);
	u32 cls;

	if (v < 0 || !(l->svr & APIC_SVR_ENABLE))
		return false;
	cls = (u32)v & 0xf0;
	return cls > (isrv < 0 ? 0 : ((u32)isrv & 0xf0)) &&
	       cls <= (l->tpr & 0xf0);
}

bool vlapic_irr_any(const struct vlapic *l)
{
	return highest_irr(l) >= 0;
}

/* The summary bit is cleared before IRR is looked at again, both SEQ_CST:
 * a vector whose IRR bit that second look misses was set after it, so its
 * poster's summary OR (which follows its IRR OR) comes after our clear and
 * the bit stays set. A vector the look sees keeps the bit set. */
static int irr_top_maybe(struct vlapic *l)
{
	int v;

	if (!(__atomic_load_n(&l->pending, __ATOMIC_ACQUIRE) & VLAPIC_PEND_IRR))
		return -1;
	v = highest_irr(l);
	if (v >= 0)
		return v;
	__atomic_fetch_and(&l->pending, ~VLAPIC_PEND_IRR, __ATOMIC_SEQ_CST);
	v = highest_irr(l);
	if (v < 0)
		return -1;
	__atomic_fetch_or(&l->pending, VLAPIC_PEND_IRR, __ATOMIC_SEQ_CST);
	return v;
}

bool vlapic_irr_maybe(struct vlapic *l)
{
	return irr_top_maybe(l) >= 0;
}

void vlapic_ack(struct vlapic *l, u8 vector)
{
	u32 bit = 1u << (vector & 31);

	__atomic_fetch_and(&l->irr[vector >> 5], ~bit, __ATOMIC_SEQ_CST);
	l->isr[vector >> 5] |= bit;
	l->isr_words |= (u8)(1u << (vector >> 5));
}

void vlapic_eoi(struct vlapic *l)
{
	int v = highest_isr(l);

	if (v < 0) {
		/* Nothing in service: ignored, but counted (a vector the
		 * guest got twice shows up as one of these). */
		l->spare_eois++;
		return;
	}
	l->isr[v >> 5] &= ~(1u << (v & 31));
	if (!l->isr[v >> 5])
		l->isr_words &= (u8) ~(1u << (v >> 5));
	/* A level-triggered interrupt's EOI goes to the I/O APICs, which
	 * clear the remote IRR of the entries with this vector (SDM 11.8.5,
	 * 82093AA 3.2.4); TMR stays as it is (11.8.4: it changes when a
	 * vector is accepted). */
	if ((__atomic_load_n(&l->tmr[v >> 5], __ATOMIC_ACQUIRE) &
	     (1u << (v & 31))) &&
	    l->bus && l->bus->eoi)
		l->bus->eoi(l->bus->ctx, (u8)v);
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

void vlapic_ack_edge(struct vlapic *l, u8 vector)
{
	u32 bit = 1u << (vector & 31);

	if (__atomic_load_n(&l->tmr[vector >> 5], __ATOMIC_ACQUIRE) & bit)
		__atomic_fetch_and(&l->tmr[vector >> 5], ~bit,
				   __ATOMIC_SEQ_CST);
	l->isr[vector >> 5] |= bit;
	l->isr_words |= (u8)(1u << (vector >> 5));
}

void vlapic_unack(struct vlapic *l, u8 vector)
{
	u32 bit = 1u << (vector & 31);

	l->isr[vector >> 5] &= ~bit;
	if (!l->isr[vector >> 5])
		l->isr_words &= (u8) ~(1u << (vector >> 5));
	/* As vlapic_set_irr() posts it (TMR stays as it was posted). */
	__atomic_fetch_or(&l->irr[vector >> 5], bit, __ATOMIC_SEQ_CST);
	__atomic_fetch_or(&l->pending, VLAPIC_PEND_IRR, __ATOMIC_SEQ_CST);
}

unsigned vlapic_next_event(struct vlapic *l, bool shadow, bool busy, u8 *vec)
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
	/* Nothing posted since IRR was last seen empty: no scan; else one
	 * scan for the highest vector. */
	v = irr_top_maybe(l);
	if (v < 0)
		return r;
	v = deliverable(l, v);
	if (v < 0)
		return vlapic_tpr_holds(l) ? r | VLAPIC_INJ_TPR : r;
	*vec = (u8)v;
	vlapic_ack(l, (u8)v);
	/* IRR empty now (the usual case): the summary goes at once, with
	 * the same clear-then-look as irr_top_maybe(), so the entries after
	 * this one (an EOI's, above all) find nothing to do. */
	if (irr_empty(l)) {
		__atomic_fetch_and(&l->pending, ~VLAPIC_PEND_IRR,
				   __ATOMIC_SEQ_CST);
		if (!irr_empty(l))
			__atomic_fetch_or(&l->pending, VLAPIC_PEND_IRR,
					  __ATOMIC_SEQ_CST);
	}
	return r | VLAPIC_INJ_INTR;
}
