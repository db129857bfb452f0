/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/ioapic.h - the I/O APIC (Intel 82093AA data sheet 3.0-3.2; the ACPI
 * MADT gives each one's address and first GSI): its two MMIO windows, the
 * indirect registers and the redirection-table entry (RTE) bits. Shared by
 * the host driver (arch/ioapic.c) and any model of one for guests. */
#ifndef MINHV_ARCH_IOAPIC_H
#define MINHV_ARCH_IOAPIC_H

#include "arch/types.h"

/* MMIO: select a register in IOREGSEL, then read or write it in IOWIN. */
#define IOAPIC_MMIO_REGSEL 0x00
#define IOAPIC_MMIO_WIN 0x10
#define IOAPIC_MMIO_EOI 0x40 /* version >= 0x20: clears a remote IRR */
#define IOAPIC_MMIO_SIZE 0x100

/* Indirect registers. */
#define IOAPIC_REG_ID 0x00
#define IOAPIC_REG_VER 0x01 /* [7:0] version, [23:16] highest RTE index */
#define IOAPIC_VER_VERSION(v) ((v)&0xffu)
#define IOAPIC_VER_MAX_RTE(v) (((v) >> 16) & 0xffu)
#define IOAPIC_VERSION_EOI 0x20 /* from here on: the EOI register */
#define IOAPIC_REG_ARB 0x02
#define IOAPIC_REG_RTE_LO(pin) (0x10u + 2u * (pin))
#define IOAPIC_REG_RTE_HI(pin) (0x11u + 2u * (pin))
#define IOAPIC_MAX_PINS 240 /* 0x10 + 2 * 240 fills the 8-bit index */

/* Redirection-table entry, low dword (the high dword holds the
 * destination in [31:24]). */
#define IOAPIC_RTE_VECTOR_MASK 0xffu
#define IOAPIC_RTE_DELIVERY_SHIFT 8
#define IOAPIC_RTE_DELIVERY_MASK (7u << 8)
#define IOAPIC_RTE_DELIVERY_FIXED (0u << 8)
#define IOAPIC_RTE_DELIVERY_SMI (2u << 8)
#define IOAPIC_RTE_DELIVERY_NMI (4u << 8)
#define IOAPIC_RTE_DELIVERY_EXTINT (7u << 8)
#define IOAPIC_RTE_DEST_LOGICAL (1u << 11)
#define IOAPIC_RTE_PENDING (1u << 12) /* delivery status, read only */
#define IOAPIC_RTE_ACTIVE_LOW (1u << 13)
#define IOAPIC_RTE_REMOTE_IRR (1u << 14) /* read only: level IRQ in service */
#define IOAPIC_RTE_LEVEL (1u << 15)
#define IOAPIC_RTE_MASKED (1u << 16)

/* The PC's first I/O APIC (where QEMU and most firmware put it) and the
 * fields of its ID register and of an RTE's high dword (82093AA 3.2.1,
 * 3.2.4): the guest's model (hv/platform/ioapic.c) shows one there. */
#define IOAPIC_DEFAULT_BASE 0xfec00000u
#define IOAPIC_ID_SHIFT 24
#define IOAPIC_ID_MASK 0x0fu /* 4 bits, [27:24] */
#define IOAPIC_RTE_DEST_SHIFT 56 /* the 64-bit RTE's destination [63:56] */
#define IOAPIC_RTE_RO (IOAPIC_RTE_PENDING | IOAPIC_RTE_REMOTE_IRR)

/* What ioapic_mask_all() found and did. */
struct ioapic_mask_report {
	u32 version;
	u32 pins; /* redirection entries */
	u32 unmasked; /* entries that were unmasked at hand-over */
	u32 smi; /* SMI-delivery entries, left as the firmware set them */
	u32 irr_cleared; /* remote IRR found set and cleared */
	u32 irr_stuck; /* remote IRR still set afterwards */
	s32 first_unmasked; /* pin, or -1 */
	u32 first_unmasked_rte; /* its low dword as found */
};

u32 ioapic_read(hpa_t base, u32 reg);
void ioapic_write(hpa_t base, u32 reg, u32 val);
/* Mask every redirection entry of the I/O APIC at base, as Linux's
 * clear_IO_APIC() does: SMI entries stay (the firmware owns them); a
 * remote IRR left set is cleared (EOI register, or a level->edge->level
 * flip on older parts) so the pin works once a driver unmasks it. */
void ioapic_mask_all(hpa_t base, struct ioapic_mask_report *r);

#endif
