// SPDX-License-Identifier: GPL-2.0-only
/* arch/apic_xapic.c - xAPIC back end: MMIO at IA32_APIC_BASE (0xfee00000),
 * 8-bit destinations, ICR written high then low, delivery status (bit 12)
 * polled before each send (SDM vol 3 11.6.1, AMD APM vol 2 16.5). */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/msr.h"

#define ICR_IDLE_SPINS 1000000

static u32 xa_read(u32 reg)
{
	return mmio_read32(hpa(g_xapic_base.v + reg));
}

static void xa_write(u32 reg, u32 v)
{
	mmio_write32(hpa(g_xapic_base.v + reg), v);
}

static void xa_enable(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	if (!(base & APIC_BASE_EN))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN);
}

static u32 xa_id(void)
{
	return xa_read(APIC_REG_ID) >> 24;
}

static void xa_eoi(void)
{
	xa_write(APIC_REG_EOI, 0);
}

static bool icr_idle(void)
{
	for (u32 i = 0; i < ICR_IDLE_SPINS; i++) {
		if (!(xa_read(APIC_REG_ICR_LO) & ICR_DELIVERY_PENDING))
			return true;
		cpu_relax();
	}
	return false;
}

/* The two ICR halves must not be split by an interrupt handler that sends
 * its own IPI: interrupts stay off from the idle check to the low write. */
static int xa_send(const struct apic_icr *r)
{
	u32 lo, hi;
	bool irq = read_rflags() & RFLAGS_IF;
	int err = apic_icr_encode_xapic(r, &lo, &hi);

	if (err)
		return err;
	if (irq)
		irq_disable();
	if (icr_idle()) {
		xa_write(APIC_REG_ICR_HI, hi);
		xa_write(APIC_REG_ICR_LO, lo); /* this write sends */
	} else {
		err = -ETIMEDOUT;
	}
	if (irq)
		irq_enable();
	return err;
}

/* xAPIC has no SELF_IPI register: use the self shorthand. */
static void xa_self_ipi(u8 vector)
{
	struct apic_icr r =
		apic_icr_shorthand(APIC_SH_SELF, APIC_DM_FIXED, vector);

	xa_send(&r);
}

const struct apic_ops apic_xapic_ops = {
	.name = "xAPIC",
	.mode = APIC_MODE_XAPIC,
	.fenced = false,
	.enable = xa_enable,
	.read = xa_read,
	.write = xa_write,
	.id = xa_id,
	.send = xa_send,
	.self_ipi = xa_self_ipi,
	.eoi = xa_eoi,
};
