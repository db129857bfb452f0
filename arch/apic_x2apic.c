// SPDX-License-Identifier: GPL-2.0-only
/* arch/apic_x2apic.c - x2APIC back end: registers are MSRs 0x800-0x8ff, the
 * ICR is one 64-bit write with no delivery status (SDM vol 3 11.12). Two
 * ops tables: plain (AMD, Hygon) and fenced (Intel, weak_wrmsr_fence). */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/msr.h"

/* Disabled -> xAPIC -> x2APIC; EXTD may only be set with EN (SDM 11.12.5). */
static void x2_enable(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	if (base & APIC_BASE_EXTD)
		return;
	if (!(base & APIC_BASE_EN)) {
		base |= APIC_BASE_EN;
		wrmsr(MSR_APIC_BASE, base);
	}
	wrmsr(MSR_APIC_BASE, base | APIC_BASE_EXTD);
}

static u32 x2_read(u32 reg)
{
	return (u32)rdmsr(X2APIC_MSR(reg));
}

static void x2_write(u32 reg, u32 v)
{
	wrmsr(X2APIC_MSR(reg), v);
}

static u32 x2_id(void)
{
	return (u32)rdmsr(X2APIC_MSR(APIC_REG_ID)); /* all 32 bits */
}

/* EOI is never fenced: it announces no memory stores (Linux does the same). */
static void x2_eoi(void)
{
	wrmsr(X2APIC_MSR(APIC_REG_EOI), 0);
}

static int x2_send(const struct apic_icr *r)
{
	u64 icr;
	int err = apic_icr_encode_x2apic(r, &icr);

	if (!err)
		wrmsr(X2APIC_MSR(APIC_REG_ICR_LO), icr);
	return err;
}

static void x2_self_ipi(u8 vector)
{
	wrmsr(X2APIC_MSR(APIC_REG_SELF_IPI), vector);
}

/* Intel SDM 11.12.3: WRMSR to x2APIC registers is not serializing; stores
 * before it may not be visible when the IPI lands. MFENCE;LFENCE first. */
static int x2_send_fenced(const struct apic_icr *r)
{
	u64 icr;
	int err = apic_icr_encode_x2apic(r, &icr);

	if (!err) {
		mfence();
		lfence();
		wrmsr(X2APIC_MSR(APIC_REG_ICR_LO), icr);
	}
	return err;
}

static void x2_self_ipi_fenced(u8 vector)
{
	mfence();
	lfence();
	wrmsr(X2APIC_MSR(APIC_REG_SELF_IPI), vector);
}

const struct apic_ops apic_x2apic_ops = {
	.name = "x2APIC",
	.mode = APIC_MODE_X2APIC,
	.fenced = false,
	.enable = x2_enable,
	.read = x2_read,
	.write = x2_write,
	.id = x2_id,
	.send = x2_send,
	.self_ipi = x2_self_ipi,
	.eoi = x2_eoi,
};

const struct apic_ops apic_x2apic_fenced_ops = {
	.name = "x2APIC (fenced)",
	.mode = APIC_MODE_X2APIC,
	.fenced = true,
	.enable = x2_enable,
	.read = x2_read,
	.write = x2_write,
	.id = x2_id,
	.send = x2_send_fenced,
	.self_ipi = x2_self_ipi_fenced,
	.eoi = x2_eoi,
};
