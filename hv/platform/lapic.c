/* hv/platform/lapic.c - the virtual local APIC register file by xAPIC
 * offset (SDM vol 3 table 11-1, APM 16.3-16.4), with the x2APIC
 * differences (SDM 11.12.1-11.12.3): ID and LDR read-only, no DFR/APR/RRD,
 * 64-bit ICR, #GP on nonzero EOI/ESR writes and on bits 63:32. */
#include "hv/platform/lapic.h"
#include "hv/errno.h"

#define R_ID 0x020
#define R_VER 0x030
#define R_TPR 0x080
#define R_APR 0x090
#define R_PPR 0x0a0
#define R_EOI 0x0b0
#define R_RRD 0x0c0
#define R_LDR 0x0d0
#define R_DFR 0x0e0
#define R_SVR 0x0f0
#define R_ISR0 0x100 /* ISR 0x100-0x170, TMR 0x180-0x1f0, IRR 0x200-0x270 */
#define R_IRR7 0x270
#define R_ESR 0x280
#define R_ICR_LO 0x300
#define R_ICR_HI 0x310
#define R_LVT0 0x320 /* timer, thermal, perf, LINT0, LINT1, error */
#define R_LVT5 0x370
#define R_TMICT 0x380
#define R_TMCCT 0x390
#define R_TDCR 0x3e0
#define R_SELF_IPI 0x3f0 /* x2APIC only */

#define LVT_MASKED BIT(16)
#define SVR_ENABLE BIT(8)
/* SVR: vector, APIC enable, focus CPU core checking (APM 16.4.7); no EOI
 * broadcast suppression, as the version register does not offer it. */
#define SVR_MASK 0x3ffu
/* ICR low: vector, delivery mode, destination mode, level, trigger,
 * shorthand. Bit 12 (delivery status) is never set: nothing is pending. */
#define ICR_LO_MASK 0x000ccfffu
/* x2APIC ICR bits that #GP (SDM 11.12.9; as KVM). */
#define X2_ICR_RSVD (0xfff00000ULL | 0x30000ULL | BIT(13))
#define ESR_SEND_ILLEGAL_VECTOR BIT(5)
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
		return m[0] | LVT_MASKED | (l->cfg.tsc_deadline ? BIT(18) : 0);
	return m[i];
}

static void reset_regs(struct vlapic *l)
{
	l->id = l->cfg.vcpu_id << 24;
	l->tpr = l->ldr = l->esr = l->esr_pending = 0;
	l->icr_lo = l->icr_hi = 0;
	l->dfr = 0xffffffffu;
	l->svr = 0xff;
	for (unsigned i = 0; i < VLAPIC_NR_LVT; i++)
		l->lvt[i] = LVT_MASKED;
	l->timer_init = l->timer_div = 0;
}

void vlapic_init(struct vlapic *l, const struct vlapic_config *cfg)
{
	l->cfg = *cfg;
	l->apic_base = VLAPIC_DEFAULT_BASE | APIC_BASE_EN |
		       (cfg->bsp ? APIC_BASE_BSP : 0);
	reset_regs(l);
}

enum vlapic_mode vlapic_mode(const struct vlapic *l)
{
	if (!(l->apic_base & APIC_BASE_EN))
		return VLAPIC_DISABLED;
	return (l->apic_base & APIC_BASE_EXTD) ? VLAPIC_X2APIC : VLAPIC_XAPIC;
}

gpa_t vlapic_mmio_base(const struct vlapic *l)
{
	return gpa(l->apic_base & ~(PAGE_SIZE - 1));
}

u64 vlapic_apic_base_read(const struct vlapic *l)
{
	return l->apic_base;
}

/* x2APIC logical ID: cluster in 31:16, one bit of 16 in 15:0 (SDM
 * 11.12.10.2). */
static u32 x2apic_ldr(u32 id)
{
	return ((id >> 4) << 16) | (1u << (id & 15));
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

/* No interrupt is ever in service or requested, so PPR is TPR and APR
 * follows SDM 11.8.3.1 with ISRV = IRRV = 0. */
static u32 apr(const struct vlapic *l)
{
	return (l->tpr & 0xf0) ? l->tpr : 0;
}

int vlapic_reg_read(struct vlapic *l, u32 off, u64 *val)
{
	bool x2 = vlapic_mode(l) == VLAPIC_X2APIC;

	*val = 0;
	if (off >= R_LVT0 && off <= R_LVT5 && !(off & 15)) {
		*val = l->lvt[(off - R_LVT0) >> 4];
		return 0;
	}
	if (off >= R_ISR0 && off <= R_IRR7 && !(off & 15))
		return 0; /* ISR, TMR, IRR: nothing pending */
	switch (off) {
	case R_ID:
		*val = x2 ? l->cfg.vcpu_id : l->id;
		return 0;
	case R_VER:
		*val = VLAPIC_VERSION;
		return 0;
	case R_TPR:
		*val = l->tpr;
		return 0;
	case R_PPR:
		*val = l->tpr;
		return 0;
	case R_LDR:
		*val = l->ldr;
		return 0;
	case R_SVR:
		*val = l->svr;
		return 0;
	case R_ESR:
		*val = l->esr;
		return 0;
	case R_ICR_LO:
		*val = l->icr_lo;
		if (x2)
			*val |= (u64)l->icr_hi << 32;
		return 0;
	case R_TMICT:
		*val = l->timer_init;
		return 0;
	case R_TMCCT:
		return 0; /* no countdown is modelled yet */
	case R_TDCR:
		*val = l->timer_div;
		return 0;
	}
	if (x2)
		return -EINVAL; /* reserved or write-only (EOI, SELF_IPI) */
	switch (off) {
	case R_APR:
		*val = apr(l);
		return 0;
	case R_EOI: /* write-only: reads 0 */
	case R_RRD: /* remote read never completes anything */
		return 0;
	case R_DFR:
		*val = l->dfr;
		return 0;
	case R_ICR_HI:
		*val = l->icr_hi;
		return 0;
	}
	return -EINVAL;
}

static void write_lvt(struct vlapic *l, unsigned i, u32 v)
{
	v &= lvt_mask(l, i);
	/* Software-disabled: LVT masks stay set (SDM 11.4.7.2). */
	if (!(l->svr & SVR_ENABLE))
		v |= LVT_MASKED;
	l->lvt[i] = v;
}

static void write_icr(struct vlapic *l, u32 lo, u32 hi)
{
	u32 mode = (lo >> 8) & 7;

	/* A fixed or lowest-priority IPI with vector 0-15 is an error
	 * (APM 16.4.6 SIV), nothing is sent. */
	if (mode <= 1 && (lo & 0xff) < 16)
		l->esr_pending |= ESR_SEND_ILLEGAL_VECTOR;
	l->icr_lo = lo & ICR_LO_MASK;
	l->icr_hi = hi;
}

int vlapic_reg_write(struct vlapic *l, u32 off, u64 val)
{
	bool x2 = vlapic_mode(l) == VLAPIC_X2APIC;
	u32 v = (u32)val;

	if (x2 && off != R_ICR_LO && (val >> 32))
		return -EINVAL;
	if (off >= R_LVT0 && off <= R_LVT5 && !(off & 15)) {
		write_lvt(l, (off - R_LVT0) >> 4, v);
		return 0;
	}
	switch (off) {
	case R_TPR:
		l->tpr = v & 0xff;
		return 0;
	case R_EOI:
		/* Nothing in service; x2APIC: nonzero #GPs (SDM 11.12.1.2). */
		return x2 && v ? -EINVAL : 0;
	case R_SVR:
		l->svr = v & SVR_MASK;
		if (!(l->svr & SVR_ENABLE))
			for (unsigned i = 0; i < VLAPIC_NR_LVT; i++)
				l->lvt[i] |= LVT_MASKED;
		return 0;
	case R_ESR:
		/* A write latches the errors seen since the last one
		 * (SDM 11.5.3); x2APIC requires the value 0. */
		if (x2 && v)
			return -EINVAL;
		l->esr = l->esr_pending;
		l->esr_pending = 0;
		return 0;
	case R_ICR_LO:
		if (x2) {
			if (val & X2_ICR_RSVD)
				return -EINVAL;
			write_icr(l, v, (u32)(val >> 32));
		} else {
			write_icr(l, v, l->icr_hi);
		}
		return 0;
	case R_TMICT:
		l->timer_init = v;
		return 0;
	case R_TDCR:
		l->timer_div = v & TDCR_MASK;
		return 0;
	}
	if (x2) {
		if (off == R_SELF_IPI)
			return 0; /* accepted; delivery is not modelled */
		return -EINVAL; /* reserved or read-only */
	}
	switch (off) {
	case R_ID:
		l->id = v & 0xff000000u; /* AMD: read/write, APM 16.3.3 */
		return 0;
	case R_LDR:
		l->ldr = v & 0xff000000u;
		return 0;
	case R_DFR:
		l->dfr = (v & 0xf0000000u) | 0x0fffffffu;
		return 0;
	case R_ICR_HI:
		l->icr_hi = v & 0xff000000u;
		return 0;
	}
	return -EINVAL; /* read-only or reserved */
}
