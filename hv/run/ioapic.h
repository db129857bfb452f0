/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/run/ioapic.h - the host's I/O APICs kept quiet: minhv takes no device
 * interrupt, so every pin the firmware left unmasked is masked at boot. */
#ifndef MINHV_HV_RUN_IOAPIC_H
#define MINHV_HV_RUN_IOAPIC_H

#include "hv/acpi/acpi.h"

/* Mask every redirection entry of every MADT I/O APIC (boot CPU, before
 * interrupts are enabled), one line each. Returns the number of entries
 * that were unmasked at hand-over. */
u32 ioapic_quiesce(const struct acpi_info *a);

#endif
