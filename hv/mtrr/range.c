// SPDX-License-Identifier: GPL-2.0-only
/* hv/mtrr/range.c - set the memory type of one physical range through a
 * variable MTRR (SDM vol 3A 11.11.2.3: base aligned to a power-of-two
 * size, at least 4 KiB), then re-run the rendezvous. */
#include "arch/errno.h"
#include "arch/spinlock.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mtrr/mtrr.h"

static spinlock_t range_lock;
static struct mtrr_state next; /* under range_lock */

static bool valid(const struct mtrr_var *v)
{
	return v->mask & MTRR_PHYSMASK_VALID;
}

static bool overlap(const struct mtrr_var *a, const struct mtrr_var *b)
{
	return ((a->base ^ b->base) & a->mask & b->mask & MTRR_ADDR_MASK) == 0;
}

static int check(u64 base, u64 size, u8 type, u32 pa_bits)
{
	u64 top = pa_bits >= 64 ? ~0ULL : (1ULL << pa_bits) - 1;

	if (!mtrr_type_valid(type)) {
		pr_err("mtrr: type %u is not UC/WC/WT/WP/WB\n", type);
		return -EINVAL;
	}
	if (size < PAGE_SIZE || (size & (size - 1))) {
		pr_err("mtrr: size %#llx is not a power of two >= 4 KiB\n",
		       (unsigned long long)size);
		return -EINVAL;
	}
	if (base & (size - 1)) {
		pr_err("mtrr: base %#llx is not aligned to size %#llx\n",
		       (unsigned long long)base, (unsigned long long)size);
		return -EINVAL;
	}
	if (base > top || size - 1 > top - base) {
		pr_err("mtrr: %#llx+%#llx is beyond %u physical address bits\n",
		       (unsigned long long)base, (unsigned long long)size,
		       pa_bits);
		return -ERANGE;
	}
	return 0;
}

/* Where r goes in s: an identical range's slot, else a free one. */
static int place(const struct mtrr_state *s, const struct mtrr_var *r)
{
	int free_slot = -1;

	for (u32 i = 0; i < s->vcnt; i++) {
		const struct mtrr_var *v = &s->var[i];

		if (!valid(v)) {
			if (free_slot < 0)
				free_slot = (int)i;
			continue;
		}
		if ((v->base & MTRR_ADDR_MASK) == (r->base & MTRR_ADDR_MASK) &&
		    v->mask == r->mask)
			return (int)i;
		if (overlap(v, r)) {
			pr_err("mtrr: %#llx mask %#llx overlaps variable MTRR %u (%#llx mask %#llx %s): splitting is not supported\n",
			       (unsigned long long)(r->base & MTRR_ADDR_MASK),
			       (unsigned long long)r->mask, i,
			       (unsigned long long)(v->base & MTRR_ADDR_MASK),
			       (unsigned long long)v->mask,
			       mtrr_type_name(MTRR_PHYS_TYPE(v->base)));
			return -EBUSY;
		}
	}
	if (free_slot < 0)
		pr_err("mtrr: all %u variable MTRRs are in use\n", s->vcnt);
	return free_slot < 0 ? -ENOSPC : free_slot;
}

int mtrr_set_range(u64 base, u64 size, u8 type)
{
	const struct mtrr_state *cur = mtrr_cur_state();
	u32 pa_bits = g_features.phys_addr_bits;
	u64 pa_mask = pa_bits >= 64 ? ~0ULL : (1ULL << pa_bits) - 1;
	struct mtrr_var r;
	int rc, slot;

	if (!cur) {
		pr_err("mtrr: set_range before mtrr_init (or no MTRRs)\n");
		return -ENODEV;
	}
	if (mtrr_locked_for_snp()) {
		pr_err("mtrr: set_range refused: MTRRs are locked for SNP\n");
		return -EPERM;
	}
	rc = check(base, size, type, pa_bits);
	if (rc)
		return rc;
	r.base = base | type;
	r.mask = (~(size - 1) & pa_mask & MTRR_ADDR_MASK) | MTRR_PHYSMASK_VALID;

	spin_lock(&range_lock);
	slot = place(cur, &r);
	if (slot < 0) {
		spin_unlock(&range_lock);
		return slot;
	}
	if (cur->var[slot].base == r.base && cur->var[slot].mask == r.mask) {
		spin_unlock(&range_lock);
		return 0; /* already so: no rendezvous */
	}
	memcpy(&next, cur, sizeof(next));
	next.var[slot] = r;
	pr_info("mtrr: variable MTRR %d := %#llx+%#llx %s\n", slot,
		(unsigned long long)base, (unsigned long long)size,
		mtrr_type_name(type));
	rc = mtrr_sync_all(&next, NULL);
	spin_unlock(&range_lock);
	return rc;
}
