/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/acpi/internal.h - what the ACPI files share: the MADT, SPCR, FADT and
 * HPET decoders, handed a table whose header acpi.c has already validated. */
#ifndef MINHV_HV_ACPI_INTERNAL_H
#define MINHV_HV_ACPI_INTERNAL_H

#include "hv/acpi/acpi.h"
#include "hv/acpi/tables.h"

/* Fills the MADT part of out (lapic_addr, pcat_compat, cpus, ioapic).
 * Returns 0 or ACPI_EBADMADT / ACPI_ENOMEM after one pr_err line. */
int acpi_madt_parse(const struct acpi_madt *madt, struct acpi_info *out,
		    void *(*alloc)(size_t bytes));
/* Fills out from the SPCR; a table minhv cannot use is a pr_warn line
 * and out->present = false. */
void acpi_spcr_parse(const struct acpi_spcr *spcr, struct spcr_info *out);
/* The PM timer from a valid FADT, the HPET base from a valid HPET table
 * (either may be NULL); a field minhv cannot use is a pr_warn line. */
void acpi_timers_parse(const struct acpi_fadt *fadt,
		       const struct acpi_hpet *hpet, struct acpi_timers *out);

#endif
