/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/acpi/tables.h - firmware layouts of the ACPI tables minhv reads
 * (ACPI 6.5 section 5.2) and of Microsoft's SPCR table. Packed, as in
 * memory; every offset is checked at compile time. */
#ifndef MINHV_HV_ACPI_TABLES_H
#define MINHV_HV_ACPI_TABLES_H

#include "arch/types.h"

#define ACPI_PACKED __attribute__((packed))

/* ACPI 6.5 5.2.5.3: Root System Description Pointer. */
struct acpi_rsdp {
	char signature[8]; /* 0: "RSD PTR " */
	u8 checksum; /* 8: bytes 0..19 sum to 0 */
	char oem_id[6]; /* 9 */
	u8 revision; /* 15: 0 = ACPI 1.0 (RSDT only), 2 = XSDT */
	u32 rsdt_address; /* 16 */
	u32 length; /* 20: revision >= 2 */
	u64 xsdt_address; /* 24 */
	u8 ext_checksum; /* 32: bytes 0..35 sum to 0 */
	u8 reserved[3]; /* 33 */
} ACPI_PACKED;
#define ACPI_RSDP_V1_LEN 20
#define ACPI_RSDP_V2_LEN 36

/* ACPI 6.5 5.2.6: System Description Table Header, first in every table. */
struct acpi_header {
	char signature[4]; /* 0 */
	u32 length; /* 4: whole table, header included */
	u8 revision; /* 8 */
	u8 checksum; /* 9: all length bytes sum to 0 */
	char oem_id[6]; /* 10 */
	char oem_table_id[8]; /* 16 */
	u32 oem_revision; /* 24 */
	u32 creator_id; /* 28 */
	u32 creator_revision; /* 32 */
} ACPI_PACKED;
#define ACPI_HEADER_LEN 36

/* ACPI 6.5 5.2.12: Multiple APIC Description Table, signature "APIC". */
struct acpi_madt {
	struct acpi_header h; /* 0 */
	u32 lapic_addr; /* 36: local APIC physical address */
	u32 flags; /* 40 */
	/* 44: interrupt controller structures, each {u8 type; u8 length} */
} ACPI_PACKED;
#define ACPI_MADT_PCAT_COMPAT BIT(0) /* Table 5.20 */

struct acpi_madt_entry {
	u8 type; /* 0 */
	u8 length; /* 1: whole entry */
} ACPI_PACKED;

/* ACPI 6.5 Table 5.21: interrupt controller structure types used here. */
enum {
	MADT_LAPIC = 0,
	MADT_IOAPIC = 1,
	MADT_ISO = 2,
	MADT_LAPIC_OVERRIDE = 5,
	MADT_X2APIC = 9,
};

/* ACPI 6.5 5.2.12.2, Table 5.23: Local APIC Flags (types 0 and 9). */
#define MADT_CPU_ENABLED BIT(0)
#define MADT_CPU_ONLINE_CAPABLE BIT(1) /* MADT revision >= 5 only */
#define MADT_ONLINE_CAPABLE_MIN_REV 5

/* ACPI 6.5 5.2.12.2: Processor Local APIC. */
struct acpi_madt_lapic {
	struct acpi_madt_entry e; /* 0: type 0, length 8 */
	u8 uid; /* 2: ACPI processor UID */
	u8 apic_id; /* 3 */
	u32 flags; /* 4 */
} ACPI_PACKED;

/* ACPI 6.5 5.2.12.3: I/O APIC. */
struct acpi_madt_ioapic {
	struct acpi_madt_entry e; /* 0: type 1, length 12 */
	u8 id; /* 2 */
	u8 reserved; /* 3 */
	u32 addr; /* 4 */
	u32 gsi_base; /* 8 */
} ACPI_PACKED;

/* ACPI 6.5 5.2.12.5: Interrupt Source Override (ISA IRQ source -> GSI),
 * flags as MPS INTI flags (Table 5.26): polarity [1:0], trigger [3:2]. */
struct acpi_madt_iso {
	struct acpi_madt_entry e; /* 0: type 2, length 10 */
	u8 bus; /* 2: 0, ISA */
	u8 source; /* 3: the ISA IRQ */
	u32 gsi; /* 4 */
	u16 flags; /* 8 */
} ACPI_PACKED;
#define MADT_ISO_ACTIVE_HIGH 0x1
#define MADT_ISO_LEVEL 0xc

/* ACPI 6.5 5.2.12.8: Local APIC Address Override (64-bit address). */
struct acpi_madt_lapic_override {
	struct acpi_madt_entry e; /* 0: type 5, length 12 */
	u16 reserved; /* 2 */
	u64 addr; /* 4 */
} ACPI_PACKED;

/* ACPI 6.5 5.2.12.12: Processor Local x2APIC. */
struct acpi_madt_x2apic {
	struct acpi_madt_entry e; /* 0: type 9, length 16 */
	u16 reserved; /* 2 */
	u32 x2apic_id; /* 4 */
	u32 flags; /* 8 */
	u32 uid; /* 12 */
} ACPI_PACKED;

/* ACPI 6.5 5.2.3.2: Generic Address Structure. */
struct acpi_gas {
	u8 space_id; /* 0: 0 system memory, 1 system I/O */
	u8 bit_width; /* 1 */
	u8 bit_offset; /* 2 */
	u8 access_size; /* 3 */
	u64 address; /* 4 */
} ACPI_PACKED;
#define ACPI_GAS_MEMORY 0
#define ACPI_GAS_IO 1

/* ACPI 6.5 5.2.9, Table 5.9: Fixed ACPI Description Table, signature
 * "FACP", in its revision 3 layout (244 bytes; later revisions append
 * fields). minhv reads the host's PM timer from it (hv/acpi/timers.c) and
 * builds a guest's with it (hv/platform/acpi_tables.c). */
struct acpi_fadt {
	struct acpi_header h; /* 0 */
	u32 firmware_ctrl; /* 36 */
	u32 dsdt; /* 40 */
	u8 reserved0; /* 44 */
	u8 pm_profile; /* 45 */
	u16 sci_int; /* 46 */
	u32 smi_cmd; /* 48 */
	u8 acpi_enable, acpi_disable, s4bios_req, pstate_cnt; /* 52 */
	u32 pm1a_evt_blk, pm1b_evt_blk; /* 56 */
	u32 pm1a_cnt_blk, pm1b_cnt_blk; /* 64 */
	u32 pm2_cnt_blk; /* 72 */
	u32 pm_tmr_blk; /* 76: I/O port of the PM timer, 0 = none */
	u32 gpe0_blk, gpe1_blk; /* 80 */
	u8 pm1_evt_len, pm1_cnt_len, pm2_cnt_len; /* 88 */
	u8 pm_tmr_len; /* 91: 4 when there is a PM timer */
	u8 gpe0_blk_len, gpe1_blk_len, gpe1_base, cst_cnt; /* 92 */
	u16 p_lvl2_lat, p_lvl3_lat; /* 96 */
	u16 flush_size, flush_stride; /* 100 */
	u8 duty_offset, duty_width, day_alrm, mon_alrm, century; /* 104 */
	u16 iapc_boot_arch; /* 109 */
	u8 reserved1; /* 111 */
	u32 flags; /* 112 */
	struct acpi_gas reset_reg; /* 116 */
	u8 reset_value; /* 128 */
	u16 arm_boot_arch; /* 129 */
	u8 minor_version; /* 131 */
	u64 x_firmware_ctrl; /* 132 */
	u64 x_dsdt; /* 140 */
	struct acpi_gas x_pm1a_evt_blk, x_pm1b_evt_blk; /* 148 */
	struct acpi_gas x_pm1a_cnt_blk, x_pm1b_cnt_blk; /* 172 */
	struct acpi_gas x_pm2_cnt_blk; /* 196 */
	struct acpi_gas x_pm_tmr_blk; /* 208 */
	struct acpi_gas x_gpe0_blk, x_gpe1_blk; /* 220 */
} ACPI_PACKED;
#define ACPI_FADT_PM_TMR_END 92 /* a FADT this long has PM_TMR_BLK/LEN */
#define ACPI_FADT_X_PM_TMR_END 220 /* ... and this long X_PM_TMR_BLK */
#define ACPI_FADT_REV3_LEN 244
#define ACPI_FADT_TMR_VAL_EXT BIT(8) /* Table 5.10: the timer has 32 bits */
#define ACPI_FADT_HW_REDUCED BIT(20) /* no PM timer, no fixed hardware */

/* IA-PC HPET specification 1.0a, 3.2.4: the HPET description table,
 * signature "HPET". */
struct acpi_hpet {
	struct acpi_header h; /* 0 */
	u32 block_id; /* 36: event timer block ID (= GCAP_ID[31:0]) */
	struct acpi_gas base; /* 40: the registers, system memory */
	u8 number; /* 52 */
	u16 min_tick; /* 53 */
	u8 page_protection; /* 55 */
} ACPI_PACKED;
#define ACPI_HPET_LEN 56

/* Microsoft "Serial Port Console Redirection Table" (SPCR), revision 2
 * layout (80 bytes); revision 3+ only appends fields minhv does not use. */
struct acpi_spcr {
	struct acpi_header h; /* 0: signature "SPCR" */
	u8 interface_type; /* 36: DBG2 serial port subtype */
	u8 reserved1[3]; /* 37 */
	struct acpi_gas base; /* 40: the UART's registers */
	u8 interrupt_type; /* 52 */
	u8 irq; /* 53 */
	u32 gsi; /* 54 */
	u8 baud; /* 58: code, see spcr.c */
	u8 parity; /* 59 */
	u8 stop_bits; /* 60 */
	u8 flow_control; /* 61 */
	u8 terminal_type; /* 62 */
	u8 language; /* 63 */
	u16 pci_device_id; /* 64 */
	u16 pci_vendor_id; /* 66 */
	u8 pci_bus; /* 68 */
	u8 pci_device; /* 69 */
	u8 pci_function; /* 70 */
	u32 pci_flags; /* 71 */
	u8 pci_segment; /* 75 */
	u32 reserved2; /* 76: UART clock frequency from revision 3 */
} ACPI_PACKED;
#define ACPI_SPCR_LEN 80

_Static_assert(sizeof(struct acpi_rsdp) == ACPI_RSDP_V2_LEN, "rsdp");
_Static_assert(offsetof(struct acpi_rsdp, revision) == 15, "rsdp rev");
_Static_assert(offsetof(struct acpi_rsdp, rsdt_address) == 16, "rsdt");
_Static_assert(offsetof(struct acpi_rsdp, length) == ACPI_RSDP_V1_LEN, "len");
_Static_assert(offsetof(struct acpi_rsdp, xsdt_address) == 24, "xsdt");
_Static_assert(offsetof(struct acpi_rsdp, ext_checksum) == 32, "xsum");
_Static_assert(sizeof(struct acpi_header) == ACPI_HEADER_LEN, "header");
_Static_assert(offsetof(struct acpi_header, length) == 4, "hdr len");
_Static_assert(offsetof(struct acpi_header, checksum) == 9, "hdr sum");
_Static_assert(offsetof(struct acpi_header, creator_revision) == 32, "hdr");
_Static_assert(offsetof(struct acpi_madt, lapic_addr) == 36, "madt lapic");
_Static_assert(offsetof(struct acpi_madt, flags) == 40, "madt flags");
_Static_assert(sizeof(struct acpi_madt) == 44, "madt");
_Static_assert(sizeof(struct acpi_madt_lapic) == 8, "lapic");
_Static_assert(offsetof(struct acpi_madt_lapic, apic_id) == 3, "lapic id");
_Static_assert(offsetof(struct acpi_madt_lapic, flags) == 4, "lapic fl");
_Static_assert(sizeof(struct acpi_madt_ioapic) == 12, "ioapic");
_Static_assert(sizeof(struct acpi_madt_iso) == 10, "iso");
_Static_assert(offsetof(struct acpi_madt_iso, gsi) == 4, "iso gsi");
_Static_assert(offsetof(struct acpi_madt_iso, flags) == 8, "iso flags");
_Static_assert(offsetof(struct acpi_madt_ioapic, addr) == 4, "ioapic addr");
_Static_assert(offsetof(struct acpi_madt_ioapic, gsi_base) == 8, "gsi");
_Static_assert(sizeof(struct acpi_madt_lapic_override) == 12, "override");
_Static_assert(offsetof(struct acpi_madt_lapic_override, addr) == 4, "ov");
_Static_assert(sizeof(struct acpi_madt_x2apic) == 16, "x2apic");
_Static_assert(offsetof(struct acpi_madt_x2apic, x2apic_id) == 4, "x2 id");
_Static_assert(offsetof(struct acpi_madt_x2apic, flags) == 8, "x2 flags");
_Static_assert(offsetof(struct acpi_madt_x2apic, uid) == 12, "x2 uid");
_Static_assert(sizeof(struct acpi_gas) == 12, "gas");
_Static_assert(offsetof(struct acpi_gas, address) == 4, "gas addr");
_Static_assert(offsetof(struct acpi_spcr, interface_type) == 36, "spcr if");
_Static_assert(offsetof(struct acpi_spcr, base) == 40, "spcr base");
_Static_assert(offsetof(struct acpi_spcr, baud) == 58, "spcr baud");
_Static_assert(offsetof(struct acpi_spcr, pci_flags) == 71, "spcr pci");
_Static_assert(sizeof(struct acpi_spcr) == ACPI_SPCR_LEN, "spcr");

_Static_assert(offsetof(struct acpi_fadt, pm_tmr_blk) == 76, "fadt tmr");
_Static_assert(offsetof(struct acpi_fadt, pm_tmr_len) == 91, "fadt tmr len");
_Static_assert(offsetof(struct acpi_fadt, iapc_boot_arch) == 109, "fadt ba");
_Static_assert(offsetof(struct acpi_fadt, flags) == 112, "fadt flags");
_Static_assert(offsetof(struct acpi_fadt, reset_reg) == 116, "fadt reset");
_Static_assert(offsetof(struct acpi_fadt, x_dsdt) == 140, "fadt x_dsdt");
_Static_assert(offsetof(struct acpi_fadt, x_pm_tmr_blk) == 208, "fadt x_tmr");
_Static_assert(offsetof(struct acpi_fadt, firmware_ctrl) == 36, "fw ctrl");
_Static_assert(offsetof(struct acpi_fadt, dsdt) == 40, "fadt dsdt");
_Static_assert(offsetof(struct acpi_fadt, sci_int) == 46, "fadt sci");
_Static_assert(offsetof(struct acpi_fadt, pm1a_evt_blk) == 56, "pm1a evt");
_Static_assert(offsetof(struct acpi_fadt, pm1a_cnt_blk) == 64, "pm1a cnt");
_Static_assert(offsetof(struct acpi_fadt, pm1_evt_len) == 88, "evt len");
_Static_assert(offsetof(struct acpi_fadt, pm1_cnt_len) == 89, "cnt len");
_Static_assert(offsetof(struct acpi_fadt, p_lvl2_lat) == 96, "fadt lvl2");
_Static_assert(offsetof(struct acpi_fadt, duty_offset) == 104, "fadt duty");
_Static_assert(offsetof(struct acpi_fadt, century) == 108, "fadt century");
_Static_assert(offsetof(struct acpi_fadt, reset_value) == 128, "fadt rv");
_Static_assert(offsetof(struct acpi_fadt, minor_version) == 131, "fadt mv");
_Static_assert(offsetof(struct acpi_fadt, x_firmware_ctrl) == 132, "x_facs");
_Static_assert(offsetof(struct acpi_fadt, x_pm1a_evt_blk) == 148, "x evt");
_Static_assert(offsetof(struct acpi_fadt, x_pm1a_cnt_blk) == 172, "x cnt");
_Static_assert(offsetof(struct acpi_fadt, x_pm2_cnt_blk) == 196, "x pm2");
_Static_assert(offsetof(struct acpi_fadt, x_gpe0_blk) == ACPI_FADT_X_PM_TMR_END,
	       "fadt x_gpe0");
_Static_assert(sizeof(struct acpi_fadt) == ACPI_FADT_REV3_LEN, "fadt rev 3");
_Static_assert(offsetof(struct acpi_hpet, block_id) == 36, "hpet id");
_Static_assert(offsetof(struct acpi_hpet, base) == 40, "hpet base");
_Static_assert(offsetof(struct acpi_hpet, number) == 52, "hpet number");
_Static_assert(offsetof(struct acpi_hpet, min_tick) == 53, "hpet tick");
_Static_assert(sizeof(struct acpi_hpet) == ACPI_HPET_LEN, "hpet");

#endif
