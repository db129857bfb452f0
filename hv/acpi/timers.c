// SPDX-License-Identifier: GPL-2.0-only
/* hv/acpi/timers.c - the reference clocks the firmware describes: the ACPI
 * PM timer from the FADT (PM_TMR_BLK, or X_PM_TMR_BLK when it is there;
 * ACPI 6.5 5.2.9 and 4.8.3.3) and the HPET's base from its table (IA-PC
 * HPET 1.0a 3.2.4). Only what the TSC calibration needs. */
#include "hv/acpi/internal.h"
#include "hv/log.h"

static void fadt_timer(const struct acpi_fadt *f, struct acpi_timers *out)
{
	u32 len = f->h.length;
	u64 port = 0;

	out->fadt = true;
	if (len > offsetof(struct acpi_fadt, flags) + 3) {
		out->hw_reduced = f->flags & ACPI_FADT_HW_REDUCED;
		out->pm_tmr_32 = f->flags & ACPI_FADT_TMR_VAL_EXT;
	}
	/* 5.2.9: X_PM_TMR_BLK supersedes PM_TMR_BLK when it is non-zero. */
	if (len >= ACPI_FADT_X_PM_TMR_END && f->x_pm_tmr_blk.address) {
		if (f->x_pm_tmr_blk.space_id != ACPI_GAS_IO) {
			pr_warn("acpi: FADT: PM timer in address space %u, not I/O; not used\n",
				f->x_pm_tmr_blk.space_id);
			return;
		}
		port = f->x_pm_tmr_blk.address;
	} else if (len >= ACPI_FADT_PM_TMR_END && f->pm_tmr_blk) {
		if (f->pm_tmr_len != 4) {
			pr_warn("acpi: FADT: PM_TMR_LEN is %u, not 4; PM timer not used\n",
				f->pm_tmr_len);
			return;
		}
		port = f->pm_tmr_blk;
	}
	if (port > 0xfffc) {
		pr_warn("acpi: FADT: PM timer port %#llx is not an I/O port; not used\n",
			(unsigned long long)port);
		return;
	}
	out->pm_tmr_port = (u16)port;
}

static void hpet_base(const struct acpi_hpet *h, struct acpi_timers *out)
{
	if (h->h.length < ACPI_HPET_LEN) {
		pr_warn("acpi: HPET table is %u bytes, below %u; not used\n",
			h->h.length, ACPI_HPET_LEN);
		return;
	}
	if (h->base.space_id != ACPI_GAS_MEMORY || !h->base.address) {
		pr_warn("acpi: HPET base %#llx in address space %u, not memory; not used\n",
			(unsigned long long)h->base.address, h->base.space_id);
		return;
	}
	out->hpet_addr = h->base.address;
}

void acpi_timers_parse(const struct acpi_fadt *fadt,
		       const struct acpi_hpet *hpet, struct acpi_timers *out)
{
	if (fadt)
		fadt_timer(fadt, out);
	if (hpet)
		hpet_base(hpet, out);
}
