/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/apic_icr.h - Interrupt Command Register encoding, as pure functions.
 * x2APIC: one 64-bit MSR 0x830 (SDM vol 3 11.12.9); xAPIC: two 32-bit MMIO
 * registers 0x300/0x310 (SDM vol 3 11.6.1, AMD APM vol 2 16.5). */
#ifndef MINHV_ARCH_APIC_ICR_H
#define MINHV_ARCH_APIC_ICR_H

#include "arch/apicdef.h" /* the ICR's fields, enum apic_dm, apic_sh */
#include "arch/types.h"

/* One IPI request, independent of the APIC mode. */
struct apic_icr {
	u32 dest; /* APIC ID; ignored with a shorthand */
	u8 vector; /* fixed: vector >= 16; SIPI: start page >> 12 */
	u8 dm; /* enum apic_dm */
	u8 sh; /* enum apic_sh */
	bool logical; /* logical destination mode */
	bool deassert; /* level de-assert (legacy INIT de-assert only) */
	bool level_trigger;
};

/* Constructors for the requests minhv uses. */
struct apic_icr apic_icr_fixed(u32 dest, u8 vector);
struct apic_icr apic_icr_nmi(u32 dest);
struct apic_icr apic_icr_init(u32 dest);
struct apic_icr apic_icr_sipi(u32 dest, u8 page);
struct apic_icr apic_icr_shorthand(enum apic_sh sh, enum apic_dm dm, u8 vector);

/* Encode for x2APIC. Returns 0 or -EINVAL (bad delivery mode, vector
 * 0..15 for a fixed IPI, level de-assert which x2APIC does not support). */
int apic_icr_encode_x2apic(const struct apic_icr *r, u64 *icr);
/* Encode for xAPIC into the low (0x300) and high (0x310) words. Also
 * -ERANGE when the destination does not fit the 8-bit field: IDs above
 * 255 are reachable only in x2APIC mode (SDM vol 3 11.12.1). */
int apic_icr_encode_xapic(const struct apic_icr *r, u32 *lo, u32 *hi);

#endif
