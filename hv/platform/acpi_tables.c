// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/acpi_tables.c - the ACPI tables a foreign guest finds (ACPI
 * 6.5 section 5.2): RSDP (revision 2) -> RSDT and XSDT -> FADT (PM1a
 * event/control blocks, 32-bit PM timer, FACS) and MADT (one enabled Local
 * APIC per vCPU at 0xFEE00000); the FADT points at a DSDT holding only the
 * \_S3 and \_S5 sleep-type packages. Every checksum is filled in. */
#include <stddef.h>

#include "arch/apicdef.h"
#include "hv/acpi/tables.h"
#include "hv/platform/platform.h"
#include "lib/checksum.h"
#include "lib/string.h"

/* ACPI 6.5 5.2.10, Table 5.14: Firmware ACPI Control Structure (no
 * checksum); OSPM writes the real-mode waking vector into it before S3. */
struct acpi_facs {
	char signature[4]; /* 0: "FACS" */
	u32 length; /* 4: 64 */
	u32 hw_signature; /* 8 */
	u32 waking_vector; /* 12: firmware_waking_vector */
	u32 global_lock; /* 16 */
	u32 flags; /* 20 */
	u64 x_waking_vector; /* 24 */
	u8 version; /* 32 */
	u8 reserved[3];
	u32 ospm_flags; /* 36 */
	u8 reserved2[24];
} ACPI_PACKED;

_Static_assert(offsetof(struct acpi_facs, waking_vector) == 12, "facs wv");
_Static_assert(offsetof(struct acpi_facs, x_waking_vector) == 24, "facs xwv");
_Static_assert(offsetof(struct acpi_facs, version) == 32, "facs version");
_Static_assert(sizeof(struct acpi_facs) == 64, "facs size");
_Static_assert(ACPI_FACS_OFF % 64 == 0, "the FACS is 64-byte aligned");

#define FADT_REV 3
#define MADT_REV 3
#define MAX_LAPICS 255 /* xAPIC IDs; the table page holds them all */

/* Offsets inside the tables block. */
#define OFF_RSDP 0x000
#define OFF_RSDT 0x040
#define OFF_XSDT 0x080
#define OFF_FACS ACPI_FACS_OFF
#define OFF_FADT 0x100
#define OFF_DSDT 0x200
#define OFF_MADT 0x240

/* DefinitionBlock body (ACPI 6.5 19.6.x; 20.2.5 AML encoding): the sleep
 * types PM1_CNT.SLP_TYP takes, as QEMU's DSDT has them:
 * Name (_S3, Package () { 1, 1, 0, 0 }), Name (_S5, Package () { 0, 0, 0, 0 })
 * NameOp '_S3_' PackageOp PkgLength(6) NumElements(4) OneOp OneOp ZeroOp ZeroOp */
static const u8 dsdt_aml[] = {
	0x08, '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x01, 0x01, 0x00, 0x00,
	0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};

_Static_assert(OFF_XSDT + ACPI_HEADER_LEN + 2 * 8 <= OFF_FACS, "xsdt fits");
_Static_assert(OFF_FACS + sizeof(struct acpi_facs) <= OFF_FADT, "facs fits");
_Static_assert(OFF_FADT + sizeof(struct acpi_fadt) <= OFF_DSDT, "fadt fits");
_Static_assert(OFF_DSDT + ACPI_HEADER_LEN + sizeof(dsdt_aml) <= OFF_MADT,
	       "dsdt fits");
_Static_assert(OFF_MADT + sizeof(struct acpi_madt) +
			       MAX_LAPICS * sizeof(struct acpi_madt_lapic) <=
		       ACPI_TABLES_SIZE,
	       "tables fit");

static void header(struct acpi_header *h, const char *sig, u32 len, u8 rev)
{
	memcpy(h->signature, sig, 4);
	h->length = len;
	h->revision = rev;
	memcpy(h->oem_id, "MINHV ", 6);
	memcpy(h->oem_table_id, "MINHVPLT", 8);
	h->oem_revision = 1;
	memcpy(&h->creator_id, "MNHV", 4);
	h->creator_revision = 1;
}

static void seal(struct acpi_header *h)
{
	h->checksum = 0;
	h->checksum = (u8)-checksum8(h, h->length);
}

void acpi_tables_build(void *dst, u64 dst_gpa, u32 nr_cpus)
{
	u8 *base = dst;
	struct acpi_rsdp *rsdp = (void *)(base + OFF_RSDP);
	struct acpi_header *rsdt = (void *)(base + OFF_RSDT);
	struct acpi_header *xsdt = (void *)(base + OFF_XSDT);
	struct acpi_fadt *fadt = (void *)(base + OFF_FADT);
	struct acpi_header *dsdt = (void *)(base + OFF_DSDT);
	struct acpi_facs *facs = (void *)(base + OFF_FACS);
	struct acpi_madt *madt = (void *)(base + OFF_MADT);
	struct acpi_madt_lapic *l = (void *)(madt + 1);
	u32 ptrs[2] = { (u32)(dst_gpa + OFF_FADT), (u32)(dst_gpa + OFF_MADT) };
	u64 xptrs[2] = { dst_gpa + OFF_FADT, dst_gpa + OFF_MADT };

	memset(dst, 0, ACPI_TABLES_SIZE);
	if (nr_cpus > MAX_LAPICS)
		nr_cpus = MAX_LAPICS;

	header(dsdt, "DSDT", ACPI_HEADER_LEN + sizeof(dsdt_aml), 2);
	memcpy(dsdt + 1, dsdt_aml, sizeof(dsdt_aml));
	seal(dsdt);

	memcpy(facs->signature, "FACS", 4);
	facs->length = sizeof(*facs);
	facs->version = 2; /* ACPI 4.0+ layout; no 64-bit wake support */

	header(&fadt->h, "FACP", sizeof(*fadt), FADT_REV);
	fadt->dsdt = (u32)(dst_gpa + OFF_DSDT);
	fadt->x_dsdt = dst_gpa + OFF_DSDT;
	fadt->firmware_ctrl = (u32)(dst_gpa + OFF_FACS);
	fadt->x_firmware_ctrl = dst_gpa + OFF_FACS;
	fadt->pm1a_evt_blk = PM1_EVT_PORT;
	fadt->pm1a_cnt_blk = PM1_CNT_PORT;
	fadt->pm1_evt_len = 4;
	fadt->pm1_cnt_len = 2;
	fadt->x_pm1a_evt_blk =
		(struct acpi_gas){ ACPI_GAS_IO, 32, 0, 2, PM1_EVT_PORT };
	fadt->x_pm1a_cnt_blk =
		(struct acpi_gas){ ACPI_GAS_IO, 16, 0, 2, PM1_CNT_PORT };
	fadt->pm_tmr_blk = PM_TIMER_PORT;
	fadt->pm_tmr_len = 4;
	fadt->flags = ACPI_FADT_TMR_VAL_EXT;
	fadt->x_pm_tmr_blk =
		(struct acpi_gas){ ACPI_GAS_IO, 32, 0, 3, PM_TIMER_PORT };
	seal(&fadt->h);

	header(&madt->h, "APIC", sizeof(*madt) + nr_cpus * sizeof(*l),
	       MADT_REV);
	madt->lapic_addr = (u32)APIC_DEFAULT_BASE;
	for (u32 i = 0; i < nr_cpus; i++)
		l[i] = (struct acpi_madt_lapic){ { MADT_LAPIC, sizeof(*l) },
						 (u8)i,
						 (u8)i,
						 MADT_CPU_ENABLED };
	seal(&madt->h);

	header(rsdt, "RSDT", ACPI_HEADER_LEN + sizeof(ptrs), 1);
	memcpy(rsdt + 1, ptrs, sizeof(ptrs));
	seal(rsdt);
	header(xsdt, "XSDT", ACPI_HEADER_LEN + sizeof(xptrs), 1);
	memcpy(xsdt + 1, xptrs, sizeof(xptrs));
	seal(xsdt);

	memcpy(rsdp->signature, "RSD PTR ", 8);
	memcpy(rsdp->oem_id, "MINHV ", 6);
	rsdp->revision = 2;
	rsdp->rsdt_address = (u32)(dst_gpa + OFF_RSDT);
	rsdp->length = ACPI_RSDP_V2_LEN;
	rsdp->xsdt_address = dst_gpa + OFF_XSDT;
	rsdp->checksum = (u8)-checksum8(rsdp, ACPI_RSDP_V1_LEN);
	rsdp->ext_checksum = (u8)-checksum8(rsdp, ACPI_RSDP_V2_LEN);
}
