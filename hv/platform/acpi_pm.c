// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/acpi_pm.c - the ACPI PM1a event and control blocks at
 * 0x600 and 0x604 (ACPI 6.5 4.8.3.1-2, as QEMU's PIIX4/ICH9 PM) and the
 * sleep states they enter: S5 (soft off) here, S3 (suspend to RAM) in
 * hv/guest/s3.c, which puts the guest's vCPUs to sleep and wakes them. */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "hv/log.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

#define FACS_WAKING_VECTOR 12 /* ACPI 6.5 5.2.10, Table 5.14 */

/* The block as one little-endian value: PM1_STS at 0, PM1_EN at 2,
 * PM1_CNT at 4 (SLP_EN reads 0: it is write-only). */
u32 acpi_pm1_read(const struct acpi_pm *pm, u16 off, unsigned size)
{
	u64 blk = pm->sts | (u64)pm->en << 16 | (u64)pm->cnt << 32;
	u32 v = (u32)(blk >> (8 * off));

	return size < 4 ? v & ((1u << (8 * size)) - 1) : v;
}

int acpi_pm1_write(struct acpi_pm *pm, u16 off, unsigned size, u32 val)
{
	u64 m = 0, w = 0;
	u16 sm, em, cm, cw;

	for (unsigned i = 0; i < size && off + i < PM1_BLK_LEN; i++) {
		m |= 0xffULL << (8 * (off + i));
		w |= (u64)((val >> (8 * i)) & 0xff) << (8 * (off + i));
	}
	sm = (u16)m;
	em = (u16)(m >> 16);
	cm = (u16)(m >> 32);
	cw = (u16)(w >> 32) & cm;
	/* 4.8.3.1.1: a status bit is cleared by writing 1 to it. */
	pm->sts &= (u16) ~((u16)w & sm);
	pm->en = (u16)((pm->en & ~em) | ((u16)(w >> 16) & em));
	pm->cnt = (u16)(((pm->cnt & ~cm) | cw) & ~PM1_CNT_SLP_EN);
	/* 4.8.3.2.1: SLP_EN enters the state SLP_TYP names. */
	return (cw & PM1_CNT_SLP_EN) ? (int)PM1_SLP_TYP(pm->cnt) : -ENOENT;
}

bool acpi_pm1_sci(const struct acpi_pm *pm)
{
	return (pm->cnt & PM1_CNT_SCI_EN) &&
	       (pm->sts & pm->en & PM1_SCI_EVENTS);
}

u32 acpi_pm_in(struct vcpu *v, u16 port, unsigned size)
{
	return acpi_pm1_read(&vcpu_platform(v)->pm, port, size);
}

void acpi_pm_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);
	int typ;

	spin_lock(&p->lock);
	typ = acpi_pm1_write(&p->pm, port, size, val);
	/* The SCI: level, on GSI 9 (the FADT's SCI_INT). */
	platform_set_irq(p, SCI_IRQ, acpi_pm1_sci(&p->pm));
	spin_unlock(&p->lock);
	if (typ == SLP_TYP_S3)
		acpi_s3_enter(v);
	else if (typ == SLP_TYP_S5)
		vcpu_end_guest(v, GUEST_END_POWEROFF,
			       "vCPU %u: ACPI S5 (soft off) by PM1a_CNT",
			       vcpu_id(v));
	/* Other SLP_TYP values name no state of the DSDT: ignored. */
}
