// SPDX-License-Identifier: GPL-2.0-only
/* hv/run/ioapic.c - mask the pins of the host's I/O APICs at boot, as Linux's
 * clear_IO_APIC() does before it sets up its own: a level-triggered source
 * the firmware left unmasked (SCI, HPET, RTC) would otherwise storm a CPU
 * or hold its ISR bit, blocking minhv's own vectors of lower priority. */
#include "hv/run/ioapic.h"
#include "arch/ioapic.h"
#include "hv/log.h"

u32 ioapic_quiesce(const struct acpi_info *a)
{
	u32 total = 0;

	for (u32 i = 0; i < a->nioapic; i++) {
		const struct madt_ioapic *io = &a->ioapic[i];
		struct ioapic_mask_report r;

		ioapic_mask_all(hpa(io->addr), &r);
		total += r.unmasked;
		pr_info("ioapic: ID %u at %#x: %u pins masked, %u were not (first: pin %d, RTE %#x); %u SMI pins left; remote IRR cleared %u, stuck %u\n",
			io->id, io->addr, r.pins - r.smi, r.unmasked,
			r.first_unmasked, r.first_unmasked_rte, r.smi,
			r.irr_cleared, r.irr_stuck);
	}
	return total;
}
