// SPDX-License-Identifier: GPL-2.0-only
/* arch/apic_icr.c - ICR encoding for x2APIC and xAPIC (pure, unit-tested).
 * Field layout: SDM vol 3 figure 11-12 (xAPIC) and 11.12.9 (x2APIC). */
#include "arch/apic_icr.h"
#include "arch/errno.h"

struct apic_icr apic_icr_fixed(u32 dest, u8 vector)
{
	return (struct apic_icr){ .dest = dest,
				  .vector = vector,
				  .dm = APIC_DM_FIXED };
}

struct apic_icr apic_icr_nmi(u32 dest)
{
	return (struct apic_icr){ .dest = dest, .dm = APIC_DM_NMI };
}

/* INIT is sent "assert, level triggered" (SDM 11.6.1); modern APICs and
 * x2APIC ignore the trigger for INIT, and minhv never sends the de-assert. */
struct apic_icr apic_icr_init(u32 dest)
{
	return (struct apic_icr){ .dest = dest,
				  .dm = APIC_DM_INIT,
				  .level_trigger = true };
}

struct apic_icr apic_icr_sipi(u32 dest, u8 page)
{
	return (struct apic_icr){ .dest = dest,
				  .vector = page,
				  .dm = APIC_DM_SIPI };
}

struct apic_icr apic_icr_shorthand(enum apic_sh sh, enum apic_dm dm, u8 vector)
{
	return (struct apic_icr){ .sh = (u8)sh,
				  .dm = (u8)dm,
				  .vector = vector };
}

/* The low 32 bits are the same in both modes, except that x2APIC has no
 * delivery-status bit (we never set it anyway). */
static int encode_low(const struct apic_icr *r, u32 *lo)
{
	u32 v = 0;

	switch (r->dm) {
	case APIC_DM_FIXED:
		/* Vectors 0..15 are illegal for fixed delivery (SDM 11.5.3). */
		if (r->vector < 16)
			return -EINVAL;
		v = r->vector;
		break;
	case APIC_DM_SIPI:
		v = r->vector; /* start page number */
		break;
	case APIC_DM_NMI:
	case APIC_DM_INIT:
		break; /* vector field must be 0 */
	default:
		return -EINVAL;
	}
	if (r->sh > APIC_SH_OTHERS)
		return -EINVAL;
	v |= (u32)r->dm << ICR_DM_SHIFT;
	if (r->logical)
		v |= ICR_DEST_LOGICAL;
	if (!r->deassert)
		v |= ICR_LEVEL_ASSERT;
	if (r->level_trigger)
		v |= ICR_TRIGGER_LEVEL;
	v |= (u32)r->sh << ICR_SH_SHIFT;
	*lo = v;
	return 0;
}

int apic_icr_encode_x2apic(const struct apic_icr *r, u64 *icr)
{
	u32 lo;
	int err;

	/* x2APIC has no INIT level de-assert (SDM 11.12.9). */
	if (r->deassert)
		return -EINVAL;
	err = encode_low(r, &lo);
	if (err)
		return err;
	*icr = lo;
	if (r->sh == APIC_SH_NONE)
		*icr |= (u64)r->dest << X2APIC_DEST_SHIFT;
	return 0;
}

int apic_icr_encode_xapic(const struct apic_icr *r, u32 *lo, u32 *hi)
{
	int err;

	if (r->sh == APIC_SH_NONE && r->dest > XAPIC_MAX_ID)
		return -ERANGE;
	err = encode_low(r, lo);
	if (err)
		return err;
	*hi = r->sh == APIC_SH_NONE ? r->dest << XAPIC_DEST_SHIFT : 0;
	return 0;
}
