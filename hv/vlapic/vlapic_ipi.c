// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic_ipi.c - interprocessor interrupts between a guest's
 * vLAPICs (SDM vol 3 11.6, APM 16.5): destination matching in physical,
 * logical flat/cluster (xAPIC) and x2APIC cluster modes, the shorthands,
 * and delivery of fixed, lowest-priority, NMI, INIT and SIPI messages. The
 * guest's ICR never reaches the physical APIC. */
#include "hv/vlapic/vlapic.h"

static bool is_x2(const struct vlapic *l)
{
	return vlapic_mode(l) == VLAPIC_X2APIC;
}

/* Logical destinations (SDM 11.6.2.2, 11.12.10.2). */
static bool match_logical(const struct vlapic *l, u32 dest, bool x2src)
{
	u32 ldr;

	if (x2src || is_x2(l)) {
		if (dest == 0xffffffffu || (!x2src && dest == 0xff))
			return true;
		/* x2APIC: cluster in 31:16, member bitmap in 15:0. */
		return (dest >> 16) == (l->ldr >> 16) &&
		       (dest & l->ldr & 0xffff);
	}
	dest &= 0xff;
	if (dest == 0xff)
		return true; /* broadcast in both models */
	ldr = l->ldr >> 24;
	if ((l->dfr >> 28) == 0xf) /* flat: a bitmap of 8 */
		return (dest & ldr) != 0;
	/* cluster: cluster ID in 7:4 equal, members in 3:0 overlap */
	return (dest >> 4) == (ldr >> 4) && (dest & ldr & 0xf);
}

bool vlapic_match_dest(const struct vlapic *l, u32 dest, bool logical,
		       bool x2src)
{
	if (vlapic_mode(l) == VLAPIC_DISABLED)
		return false; /* a hardware-disabled APIC hears nothing */
	if (logical)
		return match_logical(l, dest, x2src);
	if (x2src) {
		if (dest == 0xffffffffu)
			return true;
		return is_x2(l) ? dest == l->cfg.vcpu_id :
				  dest == (l->id >> 24);
	}
	dest &= 0xff;
	if (dest == 0xff)
		return true; /* physical broadcast */
	return is_x2(l) ? dest == l->cfg.vcpu_id : dest == (l->id >> 24);
}

bool vlapic_deliver(struct vlapic *t, u32 mode, u8 vector, bool level)
{
	switch (mode) {
	case APIC_DM_FIXED:
	case APIC_DM_LOWEST:
		/* A software-disabled APIC takes no fixed interrupts
		 * (SDM 11.4.7.2); vectors 0-15 are illegal (11.5.3). */
		if (!(t->svr & APIC_SVR_ENABLE) || vector < 16)
			return false;
		vlapic_set_irr(t, vector, level);
		break;
	case APIC_DM_NMI:
		__atomic_store_n(&t->nmi_pending, 1, __ATOMIC_SEQ_CST);
		/* The summary after the event (struct vlapic). */
		__atomic_fetch_or(&t->pending, VLAPIC_PEND_NMI,
				  __ATOMIC_SEQ_CST);
		break;
	case APIC_DM_INIT:
		__atomic_store_n(&t->init_pending, 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_or(&t->pending, VLAPIC_PEND_START,
				  __ATOMIC_SEQ_CST);
		break;
	case APIC_DM_SIPI:
		__atomic_store_n(&t->sipi, VLAPIC_SIPI_PENDING | vector,
				 __ATOMIC_SEQ_CST);
		__atomic_fetch_or(&t->pending, VLAPIC_PEND_START,
				  __ATOMIC_SEQ_CST);
		break;
	default:
		return false; /* SMI, ExtINT, reserved: nothing to deliver */
	}
	if (t->bus && t->bus->notify)
		t->bus->notify(t);
	return true;
}

void vlapic_send_ipi(struct vlapic *src, u32 lo, u32 dest)
{
	u32 mode = (lo >> ICR_DM_SHIFT) & 7, sh = (lo >> ICR_SH_SHIFT) & 3;
	bool logical = lo & ICR_DEST_LOGICAL, x2 = is_x2(src);
	bool level = (lo & ICR_TRIGGER_LEVEL) && mode == APIC_DM_FIXED;
	struct vlapic_bus *bus = src->bus;
	u8 vec = lo & 0xff;

	/* INIT level de-assert (level=0, trigger=level) only resynchronises
	 * arbitration IDs on old parts: nothing to deliver (SDM 11.6.1). */
	if (mode == APIC_DM_INIT && !(lo & ICR_LEVEL_ASSERT) &&
	    (lo & ICR_TRIGGER_LEVEL))
		return;
	if (mode <= APIC_DM_LOWEST && vec < 16)
		return; /* the sender's ESR already says "illegal vector" */
	if (sh == APIC_SH_SELF) {
		/* Self: fixed only; other modes are invalid with it. */
		if (mode == APIC_DM_FIXED)
			vlapic_deliver(src, mode, vec, level);
		return;
	}
	if (!bus) {
		if (sh == APIC_SH_ALL ||
		    (sh == APIC_SH_NONE &&
		     vlapic_match_dest(src, dest, logical, x2)))
			vlapic_deliver(src, mode, vec, level);
		return;
	}
	/* One vCPU by physical ID (Linux's every IPI in x2APIC mode): while
	 * every xAPIC ID is still its vCPU's index, as x2APIC IDs always
	 * are, only at(dest) can match; no walk over the bus. */
	if (sh == APIC_SH_NONE && !logical && !bus->ids_moved &&
	    dest != (x2 ? 0xffffffffu : 0xffu)) {
		struct vlapic *t = dest < bus->n ? bus->at(bus->ctx, dest) :
						   NULL;

		if (t && vlapic_match_dest(t, dest, false, x2))
			vlapic_deliver(t, mode, vec, level);
		return;
	}
	for (u32 i = 0; i < bus->n; i++) {
		struct vlapic *t = bus->at(bus->ctx, i);

		if (!t || (sh == APIC_SH_OTHERS && t == src))
			continue;
		if (sh == APIC_SH_NONE &&
		    !vlapic_match_dest(t, dest, logical, x2))
			continue;
		if (sh != APIC_SH_NONE && vlapic_mode(t) == VLAPIC_DISABLED)
			continue;
		vlapic_deliver(t, mode, vec, level);
		/* Lowest priority: one target, the first that matches (the
		 * APM leaves the choice to the implementation). */
		if (mode == APIC_DM_LOWEST)
			return;
	}
}
