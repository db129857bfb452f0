// SPDX-License-Identifier: GPL-2.0-only
/* arch/ioapic.c - the host's I/O APIC access: indirect register reads and
 * writes, and masking every pin at boot (Intel 82093AA data sheet 3.2.4;
 * Linux arch/x86/kernel/apic/io_apic.c clear_IO_APIC_pin()). */
#include "arch/ioapic.h"
#include "arch/cpu.h"

u32 ioapic_read(hpa_t base, u32 reg)
{
	mmio_write32(hpa(base.v + IOAPIC_MMIO_REGSEL), reg);
	return mmio_read32(hpa(base.v + IOAPIC_MMIO_WIN));
}

void ioapic_write(hpa_t base, u32 reg, u32 val)
{
	mmio_write32(hpa(base.v + IOAPIC_MMIO_REGSEL), reg);
	mmio_write32(hpa(base.v + IOAPIC_MMIO_WIN), val);
}

/* A level entry whose remote IRR is set takes no further interrupt until
 * an EOI for its vector: send one while the entry is masked. */
static void clear_remote_irr(hpa_t base, u32 version, u32 pin, u32 lo)
{
	u32 reg = IOAPIC_REG_RTE_LO(pin);

	if (version >= IOAPIC_VERSION_EOI) {
		/* An EOI only clears the remote IRR of a level entry. */
		if (!(lo & IOAPIC_RTE_LEVEL))
			ioapic_write(base, reg, lo | IOAPIC_RTE_LEVEL);
		mmio_write32(hpa(base.v + IOAPIC_MMIO_EOI),
			     lo & IOAPIC_RTE_VECTOR_MASK);
		return;
	}
	/* 82093AA: switching the trigger mode to edge clears remote IRR. */
	ioapic_write(base, reg, lo & ~IOAPIC_RTE_LEVEL);
	ioapic_write(base, reg, lo | IOAPIC_RTE_LEVEL);
}

void ioapic_mask_all(hpa_t base, struct ioapic_mask_report *r)
{
	u32 ver = ioapic_read(base, IOAPIC_REG_VER);

	*r = (struct ioapic_mask_report){ .first_unmasked = -1 };
	r->version = IOAPIC_VER_VERSION(ver);
	r->pins = IOAPIC_VER_MAX_RTE(ver) + 1;
	if (r->pins > IOAPIC_MAX_PINS)
		r->pins = IOAPIC_MAX_PINS;
	for (u32 pin = 0; pin < r->pins; pin++) {
		u32 reg = IOAPIC_REG_RTE_LO(pin);
		u32 lo = ioapic_read(base, reg);

		if ((lo & IOAPIC_RTE_DELIVERY_MASK) ==
		    IOAPIC_RTE_DELIVERY_SMI) {
			r->smi++;
			continue;
		}
		if (!(lo & IOAPIC_RTE_MASKED)) {
			if (r->first_unmasked < 0) {
				r->first_unmasked = (s32)pin;
				r->first_unmasked_rte = lo;
			}
			r->unmasked++;
			lo |= IOAPIC_RTE_MASKED;
			ioapic_write(base, reg, lo);
			lo = ioapic_read(base, reg);
		}
		if (lo & IOAPIC_RTE_REMOTE_IRR) {
			clear_remote_irr(base, r->version, pin, lo);
			lo = ioapic_read(base, reg);
			if (lo & IOAPIC_RTE_REMOTE_IRR)
				r->irr_stuck++;
			else
				r->irr_cleared++;
		}
	}
}
