// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic.c - the virtual local APIC register file by xAPIC
 * offset (SDM vol 3 table 11-1, APM 16.3-16.4), with the x2APIC
 * differences (SDM 11.12.1-11.12.3): ID and LDR read-only, no DFR/APR/RRD,
 * 64-bit ICR, #GP on nonzero EOI/ESR writes and on bits 63:32. Interrupt
 * state, the timer and IPIs are in vlapic_irq.c, vlapic_timer.c and
 * vlapic_ipi.c. */
#include "hv/vlapic/vlapic.h"
#include "arch/errno.h"

/* Registers and bits: arch/apicdef.h. The LVT entries are l->lvt[0..5]
 * from APIC_REG_LVT_TIMER on; ISR, TMR and IRR are 24 consecutive
 * registers from APIC_REG_ISR. */
#define LAST_IRR (APIC_REG_IRR + 7 * 16)

/* SVR: vector, APIC enable, focus CPU core checking (APM 16.4.7); no EOI
 * broadcast suppression, as the version register does not offer it. */
#define SVR_MASK 0x3ffu
/* ICR low: vector, delivery mode, destination mode, level, trigger,
 * shorthand. Bit 12 (delivery status) is never set: an IPI is delivered
 * to the target vLAPICs before the write completes. */
#define ICR_LO_MASK 0x000ccfffu
/* x2APIC ICR bits that #GP (SDM 11.12.9; as KVM). */
#define X2_ICR_RSVD (0xfff00000ULL | 0x30000ULL | BIT(13))
#define TDCR_MASK 0xbu

/* Writable bits per LVT (SDM figure 11-8): vector and mask everywhere;
 * delivery mode for thermal/perf/LINT; polarity and trigger for LINT;
 * timer mode for the timer. Delivery status and remote IRR are
 * read-only and never set. */
static u32 lvt_mask(const struct vlapic *l, unsigned i)
{
	static const u32 m[VLAPIC_NR_LVT] = {
		0x000200ff, 0x000107ff, 0x000107ff,
		0x0001a7ff, 0x0001a7ff, 0x000100ff,
	};

	if (i == 0)
		return m[0] | APIC_LVT_MASKED |
		       (l->cfg.tsc_deadline ? BIT(18) : 0);
	return m[i];
}

/* x2APIC logical ID: cluster in 31:16, one bit of 16 in 15:0 (SDM
 * 11.12.10.2). */
static u32 x2apic_ldr(u32 id)
{
	return ((id >> 4) << 16) | (1u << (id & 15));
}

static void reset_regs(struct vlapic *l)
{
	l->id = l->cfg.vcpu_id << 24;
	l->tpr = l->ldr = l->esr = l->esr_pending = 0;
	l->icr_lo = l->icr_hi = 0;
	l->dfr = 0xffffffffu;
	l->svr = 0xff;
	for (unsigned i = 0; i < VLAPIC_NR_LVT; i++)
		l->lvt[i] = APIC_LVT_MASKED;
	l->timer_init = l->timer_div = 0;
	for (unsigned i = 0; i < 8; i++)
		l->irr[i] = l->isr[i] = l->tmr[i] = 0;
	l->isr_words = 0;
	l->timer_next = l->timer_start = l->timer_period = 0;
	l->tsc_deadline = 0;
}

void vlapic_init_reset(struct vlapic *l)
{
	u32 id = l->id;

	reset_regs(l);
	l->id = id; /* INIT keeps the ID (SDM 11.4.7.3) and the mode */
	if (vlapic_mode(l) == VLAPIC_X2APIC)
		l->ldr = x2apic_ldr(l->cfg.vcpu_id);
	__atomic_store_n(&l->nmi_pending, 0, __ATOMIC_SEQ_CST);
	/* A SIPI sent after this INIT must still start it: sipi stays. */
	l->wait_sipi = true;
}

void vlapic_init(struct vlapic *l, const struct vlapic_config *cfg)
{
	l->cfg = *cfg;
	l->bus = NULL;
	l->nmi_pending = l->init_pending = l->sipi = l->pending = 0;
	l->wait_sipi = false;
	l->now = l->fired = 0;
	l->apic_base = APIC_DEFAULT_BASE | APIC_BASE_EN |
		       (cfg->bsp ? APIC_BASE_BSP : 0);
	reset_regs(l);
}

gpa_t vlapic_mmio_base(const struct vlapic *l)
{
	return gpa(l->apic_base & ~(PAGE_SIZE - 1));
}

u64 vlapic_apic_base_read(const struct vlapic *l)
{
	return l->apic_base;
}

/* SDM 11.12.5 figure 11-27: disabled <-> xAPIC, xAPIC -> x2APIC,
 * x2APIC -> disabled; EN=0 with EXTD=1 is invalid. */
int vlapic_apic_base_write(struct vlapic *l, u64 val)
{
	u64 rsvd = 0xffULL | BIT(9);
	enum vlapic_mode from = vlapic_mode(l), to;

	if (l->cfg.maxphyaddr < 64)
		rsvd |= ~0ULL << l->cfg.maxphyaddr;
	if (!l->cfg.x2apic)
		rsvd |= APIC_BASE_EXTD;
	if (val & rsvd)
		return -EINVAL;
	if ((val & APIC_BASE_EXTD) && !(val & APIC_BASE_EN))
		return -EINVAL;
	val = (val & ~APIC_BASE_BSP) | (l->apic_base & APIC_BASE_BSP);
	to = (val & APIC_BASE_EN) ?
		     ((val & APIC_BASE_EXTD) ? VLAPIC_X2APIC : VLAPIC_XAPIC) :
		     VLAPIC_DISABLED;
	if (to == VLAPIC_X2APIC && from == VLAPIC_DISABLED)
		return -EINVAL;
	if (to == VLAPIC_XAPIC && from == VLAPIC_X2APIC)
		return -EINVAL;
	l->apic_base = val;
	/* Disabling may return the APIC to its power-up state (SDM 11.4.3);
	 * we always do, so re-enabling starts clean. */
	if (to == VLAPIC_DISABLED && from != VLAPIC_DISABLED)
		reset_regs(l);
	if (to == VLAPIC_X2APIC && from == VLAPIC_XAPIC)
		l->ldr = x2apic_ldr(l->cfg.vcpu_id);
	return 0;
}

void vlapic_set_error(struct vlapic *l, u32 bits)
{
	l->esr_pending |= bits;
}

static int top(const u32 *bits)
{
	for (int i = 7; i >= 0; i--) {
		u32 w = __atomic_load_n(&bits[i], __ATOMIC_ACQUIRE);

		if (w)
			return i * 32 + 31 - __builtin_clz(w);
	}
	return 0;
}

/* Arbitration priority (SDM 11.8.3.1 figure 11-15): TPR when its class is
 * at least the highest requested and above the highest in service, else
 * the highest of the three classes. */
static u32 apr(const struct vlapic *l)
{
	u32 t = l->tpr & 0xf0, irrv = (u32)top(l->irr) & 0xf0,
	    isrv = (u32)top(l->isr) & 0xf0;

	if (t >= irrv && t > isrv)
		return l->tpr;
	t = t > irrv ? t : irrv;
	return t > isrv ? t : isrv;
}

int vlapic_reg_read(struct vlapic *l, u32 off, u64 *val)
{
	bool x2 = vlapic_mode(l) == VLAPIC_X2APIC;

	*val = 0;
	if (off >= APIC_REG_LVT_TIMER && off <= APIC_REG_LVT_ERROR &&
	    !(off & 15)) {
		*val = l->lvt[(off - APIC_REG_LVT_TIMER) >> 4];
		return 0;
	}
	if (off >= APIC_REG_ISR && off <= LAST_IRR && !(off & 15)) {
		u32 i = (off - APIC_REG_ISR) >>
			4; /* 0-7 ISR, 8-15 TMR, 16-23 IRR */
		const u32 *b = i < 8 ? l->isr : i < 16 ? l->tmr : l->irr;

		*val = __atomic_load_n(&b[i & 7], __ATOMIC_ACQUIRE);
		return 0;
	}
	switch (off) {
	case APIC_REG_ID:
		*val = x2 ? l->cfg.vcpu_id : l->id;
		return 0;
	case APIC_REG_VERSION:
		*val = VLAPIC_VERSION;
		return 0;
	case APIC_REG_TPR:
		*val = l->tpr;
		return 0;
	case APIC_REG_PPR:
		*val = vlapic_ppr(l);
		return 0;
	case APIC_REG_LDR:
		*val = l->ldr;
		return 0;
	case APIC_REG_SVR:
		*val = l->svr;
		return 0;
	case APIC_REG_ESR:
		*val = l->esr;
		return 0;
	case APIC_REG_ICR_LO:
		*val = l->icr_lo;
		if (x2)
			*val |= (u64)l->icr_hi << 32;
		return 0;
	case APIC_REG_TIMER_INIT:
		*val = l->timer_init;
		return 0;
	case APIC_REG_TIMER_CUR:
		*val = vlapic_timer_current(l, l->now);
		return 0;
	case APIC_REG_TIMER_DIV:
		*val = l->timer_div;
		return 0;
	}
	if (x2)
		return -EINVAL; /* reserved or write-only (EOI, SELF_IPI) */
	switch (off) {
	case APIC_REG_APR:
		*val = apr(l);
		return 0;
	case APIC_REG_EOI: /* write-only: reads 0 */
	case APIC_REG_RRD: /* remote read never completes anything */
		return 0;
	case APIC_REG_DFR:
		*val = l->dfr;
		return 0;
	case APIC_REG_ICR_HI:
		*val = l->icr_hi;
		return 0;
	}
	return -EINVAL;
}

static void write_lvt(struct vlapic *l, unsigned i, u32 v)
{
	u32 old = l->lvt[i];

	v &= lvt_mask(l, i);
	/* Software-disabled: LVT masks stay set (SDM 11.4.7.2). */
	if (!(l->svr & APIC_SVR_ENABLE))
		v |= APIC_LVT_MASKED;
	l->lvt[i] = v;
	if (i == 0)
		vlapic_timer_lvt_changed(l, old);
}

static void write_icr(struct vlapic *l, u32 lo, u32 hi)
{
	u32 mode = (lo >> ICR_DM_SHIFT) & 7;

	/* A fixed or lowest-priority IPI with vector 0-15 is an error
	 * (APM 16.4.6 SIV), nothing is sent. */
	if (mode <= APIC_DM_LOWEST && (lo & ICR_VECTOR_MASK) < 16)
		l->esr_pending |= APIC_ESR_SEND_ILLEGAL_VECTOR;
	l->icr_lo = lo & ICR_LO_MASK;
	l->icr_hi = hi;
	/* xAPIC: the destination is ICR_HI[31:24]; x2APIC: all 32 bits. */
	vlapic_send_ipi(l, l->icr_lo,
			vlapic_mode(l) == VLAPIC_X2APIC ? hi : hi >> 24);
}

bool vlapic_write_needs_time(const struct vlapic *l, u32 off)
{
	return off == APIC_REG_TIMER_INIT ||
	       ((off == APIC_REG_LVT_TIMER || off == APIC_REG_TIMER_DIV) &&
		l->timer_next);
}

int vlapic_reg_write(struct vlapic *l, u32 off, u64 val)
{
	bool x2 = vlapic_mode(l) == VLAPIC_X2APIC;
	u32 v = (u32)val;

	if (x2 && off != APIC_REG_ICR_LO && (val >> 32))
		return -EINVAL;
	if (off >= APIC_REG_LVT_TIMER && off <= APIC_REG_LVT_ERROR &&
	    !(off & 15)) {
		write_lvt(l, (off - APIC_REG_LVT_TIMER) >> 4, v);
		return 0;
	}
	switch (off) {
	case APIC_REG_TPR:
		l->tpr = v & 0xff;
		return 0;
	case APIC_REG_EOI:
		/* x2APIC: a nonzero value #GPs (SDM 11.12.1.2). */
		if (x2 && v)
			return -EINVAL;
		vlapic_eoi(l);
		return 0;
	case APIC_REG_SVR:
		l->svr = v & SVR_MASK;
		if (!(l->svr & APIC_SVR_ENABLE))
			for (unsigned i = 0; i < VLAPIC_NR_LVT; i++)
				l->lvt[i] |= APIC_LVT_MASKED;
		return 0;
	case APIC_REG_ESR:
		/* A write latches the errors seen since the last one
		 * (SDM 11.5.3); x2APIC requires the value 0. */
		if (x2 && v)
			return -EINVAL;
		l->esr = l->esr_pending;
		l->esr_pending = 0;
		return 0;
	case APIC_REG_ICR_LO:
		if (x2) {
			if (val & X2_ICR_RSVD)
				return -EINVAL;
			write_icr(l, v, (u32)(val >> 32));
		} else {
			write_icr(l, v, l->icr_hi);
		}
		return 0;
	case APIC_REG_TIMER_INIT:
		vlapic_timer_write_init(l, v, l->now);
		return 0;
	case APIC_REG_TIMER_DIV:
		l->timer_div = v & TDCR_MASK;
		return 0;
	}
	if (x2) {
		if (off == APIC_REG_SELF_IPI) {
			/* A fixed, edge IPI to this APIC (SDM 11.12.11). */
			if (v & ~0xffu)
				return -EINVAL;
			vlapic_deliver(l, APIC_DM_FIXED, v & 0xff, false);
			return 0;
		}
		return -EINVAL; /* reserved or read-only */
	}
	switch (off) {
	case APIC_REG_ID:
		l->id = v & 0xff000000u; /* AMD: read/write, APM 16.3.3 */
		if (l->bus && l->id != l->cfg.vcpu_id << 24)
			l->bus->ids_moved = true;
		return 0;
	case APIC_REG_LDR:
		l->ldr = v & 0xff000000u;
		return 0;
	case APIC_REG_DFR:
		l->dfr = (v & 0xf0000000u) | 0x0fffffffu;
		return 0;
	case APIC_REG_ICR_HI:
		l->icr_hi = v & 0xff000000u;
		return 0;
	}
	return -EINVAL; /* read-only or reserved */
}
