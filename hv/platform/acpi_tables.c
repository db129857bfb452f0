// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/acpi_tables.c - the ACPI tables a foreign guest finds (ACPI
 * 6.5 section 5.2): RSDP (revision 2) -> RSDT and XSDT -> FADT (PM1a
 * event/control blocks, 32-bit PM timer, FACS, the SCI on IRQ 9, the reset
 * register at port 0xCF9), MADT (one enabled Local APIC per vCPU at
 * 0xFEE00000, the I/O APIC at 0xFEC00000 and QEMU's interrupt source
 * overrides) and HPET; the FADT points at a DSDT holding the \_S3 and \_S5
 * sleep-type packages and, with disk=, the virtio disk's device. Every
 * checksum is filled in. */
#include <stddef.h>

#include "arch/apicdef.h"
#include "arch/ioapic.h"
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

#define FADT_RESET_REG_SUP BIT(10) /* Table 5.10: RESET_REG is there */
#define FADT_REV 3
#define MADT_REV 3
#define MAX_LAPICS 255 /* xAPIC IDs; the table page holds them all */

/* Offsets inside the tables block. */
#define OFF_RSDP 0x000
#define OFF_RSDT 0x040
#define OFF_XSDT 0x080
#define OFF_FACS ACPI_FACS_OFF
#define OFF_FADT 0x100
#define OFF_MADT 0x240
#define OFF_HPET 0xf00 /* after the largest MADT */
#define OFF_DSDT 0xf40 /* after the HPET: with the disk, 128 bytes */
#define NR_TABLES 3 /* in the RSDT and XSDT: FADT, MADT, HPET */

/* DefinitionBlock body (ACPI 6.5 19.6.x; 20.2.5 AML encoding): the sleep
 * types PM1_CNT.SLP_TYP takes, as QEMU's DSDT has them:
 * Name (_S3, Package () { 1, 1, 0, 0 }), Name (_S5, Package () { 0, 0, 0, 0 })
 * NameOp '_S3_' PackageOp PkgLength(6) NumElements(4) OneOp OneOp ZeroOp ZeroOp */
static const u8 dsdt_aml[] = {
	0x08, '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x01, 0x01, 0x00, 0x00,
	0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};

/* The disk (hv/platform/virtio.h) as QEMU's microvm declares its
 * virtio-mmio slots, which Linux's virtio_mmio binds by _HID (its module
 * alias acpi*:LNRO0005:*); ACPI 6.5 19.6.30 Device, 6.4.3.4 Memory32Fixed,
 * 6.4.3.6 Extended Interrupt (flags 0x01: consumer, level, active high,
 * exclusive), 6.4.2.9 End Tag:
 * Scope (\_SB) { Device (VR00) { Name (_HID, "LNRO0005") Name (_UID, 0)
 *   Name (_CRS, ResourceTemplate () {
 *     Memory32Fixed (ReadWrite, VIRTIO_BLK_GPA, VIRTIO_MMIO_SIZE)
 *     Interrupt (ResourceConsumer, Level, ActiveHigh, Exclusive)
 *       { VIRTIO_BLK_GSI } }) } } */
#define AML_DISK_BASE 49 /* Memory32Fixed's base, patched in */
#define AML_DISK_SIZE 53
#define AML_DISK_GSI 62
/* clang-format off */
static const u8 dsdt_disk_aml[] = {
	0x10, 0x43, 0x04, '\\', '_', 'S', 'B', '_',	/* Scope, PkgLength 67 */
	0x5b, 0x82, 0x3a, 'V', 'R', '0', '0',		/* Device, 58 */
	0x08, '_', 'H', 'I', 'D', 0x0d,			/* Name, String */
	'L', 'N', 'R', 'O', '0', '0', '0', '5', 0x00,
	0x08, '_', 'U', 'I', 'D', 0x00,			/* Name, Zero */
	0x08, '_', 'C', 'R', 'S', 0x11, 0x1a, 0x0a, 0x17, /* Buffer (23) */
	0x86, 0x09, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0,	/* Memory32Fixed */
	0x89, 0x06, 0x00, 0x01, 0x01, 0, 0, 0, 0,	/* Extended IRQ */
	0x79, 0x00,					/* End Tag */
};
/* clang-format on */

_Static_assert(sizeof(dsdt_disk_aml) == 68, "the PkgLengths above");
_Static_assert(OFF_RSDT + ACPI_HEADER_LEN + NR_TABLES * 4 <= OFF_XSDT,
	       "rsdt fits");
_Static_assert(OFF_XSDT + ACPI_HEADER_LEN + NR_TABLES * 8 <= OFF_FACS,
	       "xsdt fits");
_Static_assert(OFF_FACS + sizeof(struct acpi_facs) <= OFF_FADT, "facs fits");
_Static_assert(OFF_FADT + sizeof(struct acpi_fadt) <= OFF_MADT, "fadt fits");
/* After the Local APICs: the I/O APIC and QEMU's two overrides. */
struct madt_io {
	struct acpi_madt_ioapic ioapic;
	struct acpi_madt_iso iso[2];
} ACPI_PACKED;

_Static_assert(OFF_MADT + sizeof(struct acpi_madt) +
			       MAX_LAPICS * sizeof(struct acpi_madt_lapic) +
			       sizeof(struct madt_io) <=
		       OFF_HPET,
	       "madt fits");
_Static_assert(OFF_HPET + sizeof(struct acpi_hpet) <= OFF_DSDT, "hpet fits");
_Static_assert(OFF_DSDT + ACPI_HEADER_LEN + sizeof(dsdt_aml) +
			       sizeof(dsdt_disk_aml) <=
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

static void put32(u8 *p, u32 v)
{
	memcpy(p, &v, 4);
}

void acpi_tables_build(void *dst, u64 dst_gpa, u32 nr_cpus, bool disk)
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
	struct acpi_hpet *hpet = (void *)(base + OFF_HPET);
	u32 ptrs[NR_TABLES] = { (u32)(dst_gpa + OFF_FADT),
				(u32)(dst_gpa + OFF_MADT),
				(u32)(dst_gpa + OFF_HPET) };
	u64 xptrs[NR_TABLES] = { dst_gpa + OFF_FADT, dst_gpa + OFF_MADT,
				 dst_gpa + OFF_HPET };

	memset(dst, 0, ACPI_TABLES_SIZE);
	if (nr_cpus > MAX_LAPICS)
		nr_cpus = MAX_LAPICS;

	header(dsdt, "DSDT",
	       ACPI_HEADER_LEN + sizeof(dsdt_aml) +
		       (disk ? sizeof(dsdt_disk_aml) : 0),
	       2);
	memcpy(dsdt + 1, dsdt_aml, sizeof(dsdt_aml));
	if (disk) {
		u8 *a = (u8 *)(dsdt + 1) + sizeof(dsdt_aml);

		memcpy(a, dsdt_disk_aml, sizeof(dsdt_disk_aml));
		put32(a + AML_DISK_BASE, (u32)VIRTIO_BLK_GPA);
		put32(a + AML_DISK_SIZE, VIRTIO_MMIO_SIZE);
		put32(a + AML_DISK_GSI, VIRTIO_BLK_GSI);
	}
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
	fadt->flags = ACPI_FADT_TMR_VAL_EXT | FADT_RESET_REG_SUP;
	/* The SCI on GSI 9 (level, active high: the MADT's override); no
	 * SMI_CMD: the platform is in ACPI mode from the start. */
	fadt->sci_int = SCI_IRQ;
	/* RESET_REG: 6 to port 0xCF9, as QEMU's q35 FADT has it. */
	fadt->reset_reg = (struct acpi_gas){ ACPI_GAS_IO, 8, 0, 1, RESET_PORT };
	fadt->reset_value = RESET_VALUE;
	fadt->x_pm_tmr_blk =
		(struct acpi_gas){ ACPI_GAS_IO, 32, 0, 3, PM_TIMER_PORT };
	seal(&fadt->h);

	header(&madt->h, "APIC",
	       sizeof(*madt) + nr_cpus * sizeof(*l) + sizeof(struct madt_io),
	       MADT_REV);
	madt->lapic_addr = (u32)APIC_DEFAULT_BASE;
	madt->flags = ACPI_MADT_PCAT_COMPAT; /* the 8259s are there */
	for (u32 i = 0; i < nr_cpus; i++)
		l[i] = (struct acpi_madt_lapic){ { MADT_LAPIC, sizeof(*l) },
						 (u8)i,
						 (u8)i,
						 MADT_CPU_ENABLED };
	/* The I/O APIC (ID 0, GSIs 0-23) and the overrides QEMU presents:
	 * the PIT's IRQ 0 on GSI 2, the SCI level and active high. */
	*(struct madt_io *)(l + nr_cpus) = (struct madt_io){
		{ { MADT_IOAPIC, sizeof(struct acpi_madt_ioapic) },
		  0,
		  0,
		  IOAPIC_DEFAULT_BASE,
		  0 },
		{ { { MADT_ISO, sizeof(struct acpi_madt_iso) },
		    0,
		    PIT_IRQ,
		    2,
		    0 },
		  { { MADT_ISO, sizeof(struct acpi_madt_iso) },
		    0,
		    SCI_IRQ,
		    SCI_IRQ,
		    MADT_ISO_ACTIVE_HIGH | MADT_ISO_LEVEL } }
	};
	seal(&madt->h);

	/* The HPET (hpet.c): its timer block, as QEMU's table has it. */
	header(&hpet->h, "HPET", sizeof(*hpet), 1);
	hpet->block_id = VHPET_CAP_LO;
	hpet->base = (struct acpi_gas){ ACPI_GAS_MEMORY, 64, 0, 0,
					HPET_DEFAULT_BASE };
	seal(&hpet->h);

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
