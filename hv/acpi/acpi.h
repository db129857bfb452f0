/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/acpi/acpi.h - ACPI discovery: RSDP -> XSDT/RSDT -> MADT (CPUs, I/O APICs),
 * SPCR (the firmware's serial console), and the FADT's PM timer and the HPET
 * table (reference clocks). Tables are read in place. */
#ifndef MINHV_HV_ACPI_ACPI_H
#define MINHV_HV_ACPI_ACPI_H

#include "arch/errno.h"
#include "arch/types.h"

/* One Processor Local APIC (type 0) or Local x2APIC (type 9) entry. */
struct madt_cpu {
	u32 apic_id;
	u32 uid; /* ACPI processor UID */
	bool enabled; /* flags bit 0: usable now */
	bool online_capable; /* flags bit 1 (MADT rev >= 5), not enabled */
	bool x2apic_entry; /* came from a type 9 entry */
};

struct madt_ioapic {
	u32 id;
	u32 addr;
	u32 gsi_base;
};

struct spcr_info {
	bool present;
	u8 interface_type; /* DBG2 serial subtype: 0 16550, 0x12 16550 GAS */
	u8 space_id; /* 0 memory, 1 I/O */
	u8 bit_width;
	u8 access_size; /* GAS: 0 legacy, 1 byte, 2 word, 3 dword, 4 qword */
	u64 address;
	u32 baud; /* 0 = leave as firmware set it */
};

/* The reference clocks the FADT and the HPET table describe. */
struct acpi_timers {
	u16 pm_tmr_port; /* ACPI PM timer I/O port; 0 = none usable */
	bool pm_tmr_32; /* 32-bit counter (FADT TMR_VAL_EXT), else 24 */
	bool fadt; /* a valid FADT was found */
	bool hw_reduced; /* FADT HW_REDUCED_ACPI: no PM timer by design */
	u64 hpet_addr; /* HPET registers (system memory); 0 = none */
};

#define ACPI_MAX_IOAPIC 32

struct acpi_info {
	u8 rsdp_revision;
	bool used_xsdt;
	u64 lapic_addr; /* after any type 5 override */
	bool pcat_compat; /* MADT flags bit 0: dual 8259s present */
	u32 ncpus;
	struct madt_cpu *cpus; /* [ncpus], allocated through alloc() */
	u32 duplicates; /* entries dropped: APIC ID already listed */
	u32 nioapic;
	struct madt_ioapic ioapic[ACPI_MAX_IOAPIC];
	struct spcr_info spcr;
	struct acpi_timers timers;
};

/* Negative results of acpi_parse(): -E* values (arch/errno.h), one each,
 * named for what they mean here. */
enum acpi_error {
	ACPI_EBADRSDP = -ENODEV, /* RSDP signature or checksum */
	ACPI_EBADROOT = -EIO, /* XSDT/RSDT missing or invalid */
	ACPI_ENOMADT = -ENOENT, /* no MADT listed */
	ACPI_EBADMADT = -EINVAL, /* MADT header or an entry invalid */
	ACPI_ENOMEM = -ENOMEM, /* alloc() returned NULL */
};

/* Parse RSDP -> XSDT (RSDT when revision 0) -> MADT, SPCR, FADT, HPET. alloc(bytes)
 * gives storage for cpus (called once, sized from the MADT). Returns 0 or
 * a negative enum acpi_error after printing one pr_err line naming the
 * table and the problem. A missing or broken SPCR, FADT or HPET table is
 * never an error (a pr_warn line for a broken one). */
int acpi_parse(hpa_t rsdp, struct acpi_info *out, void *(*alloc)(size_t bytes));
/* Entries with the enabled flag set. */
u32 acpi_usable_cpus(const struct acpi_info *a);
/* pr_info: CPU count, APIC IDs, x2APIC entries, disabled / online-capable
 * ones, I/O APICs and the SPCR console. */
void acpi_print_inventory(const struct acpi_info *a);

#endif
