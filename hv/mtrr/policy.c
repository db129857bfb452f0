// SPDX-License-Identifier: GPL-2.0-only
/* hv/mtrr/policy.c - when may the two WBINVDs of the MTRR rendezvous be
 * skipped? SDM vol 3A 11.11.8 allows it on CPUs that self-snoop
 * (CPUID.1:EDX[27]); Linux does so since fd329f276eca. A later upstream
 * discussion warns that memory going from a cacheable type to UC may still
 * want the flush (lines cached under the old type would be bypassed by UC
 * accesses), so here the flush is skipped only when no address can go from
 * WC/WT/WP/WB to UC. The test is conservative: "old type" is anything but
 * UC (reserved types count as cacheable), "new type" anything but a
 * cacheable one; when unsure it flushes. Undefined overlaps of two
 * different cacheable variable ranges (SDM 11.11.4.1) are not modelled. */
#include "hv/mtrr/mtrr.h"

static bool cacheable(u8 t)
{
	return t == MTRR_TYPE_WC || t == MTRR_TYPE_WT || t == MTRR_TYPE_WP ||
	       t == MTRR_TYPE_WB;
}

static bool may_cache(u8 t)
{
	return t != MTRR_TYPE_UC;
}

static bool var_valid(const struct mtrr_var *v)
{
	return v->mask & MTRR_PHYSMASK_VALID;
}

static bool var_same(const struct mtrr_var *a, const struct mtrr_var *b)
{
	return a->base == b->base && a->mask == b->mask;
}

/* Two mask/base ranges share an address iff they agree on the bits both
 * masks fix. */
static bool overlap(const struct mtrr_var *a, const struct mtrr_var *b)
{
	return ((a->base ^ b->base) & a->mask & b->mask & MTRR_ADDR_MASK) == 0;
}

/* Every address of in lies in out: out fixes no bit in does not, and the
 * bits out fixes agree. */
static bool covers(const struct mtrr_var *out, const struct mtrr_var *in)
{
	u64 om = out->mask & MTRR_ADDR_MASK, im = in->mask & MTRR_ADDR_MASK;

	return (om & ~im) == 0 && ((out->base ^ in->base) & om) == 0;
}

static const struct mtrr_var first_mib = { 0, ~((1ULL << 20) - 1) |
						      MTRR_PHYSMASK_VALID };

static bool fixed_on(const struct mtrr_state *s)
{
	return s->have_fixed && (s->def_type & MTRR_DEF_TYPE_FE);
}

static bool fixed_any(const struct mtrr_state *s, bool (*pred)(u8))
{
	for (u32 i = 0; i < MTRR_NFIXED; i++)
		for (u32 b = 0; b < 8; b++)
			if (pred((u8)(s->fixed[i] >> (8 * b))))
				return true;
	return false;
}

static bool not_cacheable(u8 t)
{
	return !cacheable(t);
}

/* Could some address of r be cached under state s? */
static bool may_cache_in(const struct mtrr_state *s, const struct mtrr_var *r)
{
	if (!(s->def_type & MTRR_DEF_TYPE_E))
		return false; /* MTRRs off: everything is UC */
	/* Below 1 MiB the fixed ranges win over the variable ones. */
	if (fixed_on(s) && overlap(r, &first_mib) && fixed_any(s, may_cache))
		return true;
	for (u32 i = 0; i < s->vcnt; i++)
		if (var_valid(&s->var[i]) &&
		    MTRR_PHYS_TYPE(s->var[i].base) == MTRR_TYPE_UC &&
		    covers(&s->var[i], r))
			return false; /* UC wins any overlap */
	if (may_cache(MTRR_DEF_TYPE_TYPE(s->def_type)))
		return true;
	for (u32 i = 0; i < s->vcnt; i++)
		if (var_valid(&s->var[i]) &&
		    may_cache(MTRR_PHYS_TYPE(s->var[i].base)) &&
		    overlap(&s->var[i], r))
			return true;
	return false;
}

/* Does s still give v's addresses a cacheable type through a range of the
 * same address and size? (A UC range over them is caught separately.) */
static bool still_cacheable(const struct mtrr_state *s,
			    const struct mtrr_var *v)
{
	for (u32 i = 0; i < s->vcnt; i++)
		if (var_valid(&s->var[i]) && s->var[i].mask == v->mask &&
		    ((s->var[i].base ^ v->base) & MTRR_ADDR_MASK) == 0 &&
		    cacheable(MTRR_PHYS_TYPE(s->var[i].base)))
			return true;
	return false;
}

/* A reason some address goes from cacheable to UC, or NULL. */
static const char *to_uc(const struct mtrr_state *old,
			 const struct mtrr_state *new)
{
	if (!(old->def_type & MTRR_DEF_TYPE_E))
		return NULL; /* all memory was UC already */
	if (!(new->def_type &MTRR_DEF_TYPE_E))
		return "self-snoop, but MTRRs get disabled (all memory becomes UC): both WBINVDs done";
	if (may_cache(MTRR_DEF_TYPE_TYPE(old->def_type)) &&
	    !cacheable(MTRR_DEF_TYPE_TYPE(new->def_type)))
		return "self-snoop, but the default type goes from cacheable to UC: both WBINVDs done";
	if (fixed_on(old) && fixed_on(new)) {
		for (u32 i = 0; i < MTRR_NFIXED; i++)
			for (u32 b = 0; b < 8; b++)
				if (may_cache((u8)(old->fixed[i] >> (8 * b))) &&
				    !cacheable((u8)(new->fixed[i] >> (8 * b))))
					return "self-snoop, but a fixed range goes from cacheable to UC: both WBINVDs done";
	} else if (fixed_on(old) && fixed_any(old, may_cache)) {
		return "self-snoop, but cacheable fixed ranges get disabled: both WBINVDs done";
	} else if (fixed_on(new) && fixed_any(new, not_cacheable) &&
		   may_cache_in(old, &first_mib)) {
		return "self-snoop, but enabled fixed ranges make cacheable memory UC: both WBINVDs done";
	}
	for (u32 i = 0; i < new->vcnt || i < old->vcnt; i++) {
		const struct mtrr_var *o = i < old->vcnt ? &old->var[i] : NULL;
		const struct mtrr_var *n = i < new->vcnt ? &new->var[i] : NULL;

		if (o && n && var_same(o, n))
			continue;
		if (n && var_valid(n) && !cacheable(MTRR_PHYS_TYPE(n->base)) &&
		    may_cache_in(old, n))
			return "self-snoop, but a variable range makes cacheable memory UC: both WBINVDs done";
		if (o && var_valid(o) && may_cache(MTRR_PHYS_TYPE(o->base)) &&
		    !still_cacheable(new, o) &&
		    !cacheable(MTRR_DEF_TYPE_TYPE(new->def_type)))
			return "self-snoop, but a cacheable variable range goes and the default type is UC: both WBINVDs done";
	}
	return NULL;
}

bool mtrr_need_flush(const struct features *f, const struct mtrr_state *old,
		     const struct mtrr_state *new, enum tristate force,
		     const char **why)
{
	const char *r;

	if (force == TRI_ON) {
		*why = "mtrr_flush=on: both WBINVDs forced";
		return true;
	}
	if (force == TRI_OFF) {
		*why = "mtrr_flush=off: both WBINVDs skipped by option (unsafe)";
		return false;
	}
	if (!f->self_snoop) {
		*why = "no self-snoop (CPUID.1:EDX[27]=0): both WBINVDs done";
		return true;
	}
	if (!old) {
		*why = "self-snoop, but the old MTRR state is unknown: both WBINVDs done";
		return true;
	}
	r = to_uc(old, new);
	if (r) {
		*why = r;
		return true;
	}
	*why = "self-snoop (CPUID.1:EDX[27]) and no range goes from cacheable to UC: both WBINVDs skipped";
	return false;
}
