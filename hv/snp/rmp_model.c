// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/rmp_model.c - an in-memory RMP for CPUs without SNP or RMPOPT. Follows
 * the rules minhv relies on: APM vol 3 (RMPUPDATE, PSMASH, 2 MiB entries)
 * and AMD pub. 69201 (RMPOPT: per-core bits, 2 TiB from RMPOPT_BASE, any
 * RMPUPDATE clears its region's bit on every core, cached scans). */
#include "arch/errno.h"
#include "hv/snp/rmp_model.h"
#include "hv/snp/rmp_model_internal.h"
#include "hv/smp/ipi.h"
#include "arch/spinlock.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/snp/rmpopt_topo.h"

/* Only pages that were ever touched have an entry; the rest read as
 * hypervisor-owned. Open addressing on pfn + 1 (0 = empty slot). */
struct entry {
	u64 key;
	u64 gpa;
	u32 asid;
	u8 assigned, pagesize, immutable, rsvd;
};

#define WORDS_PER_CORE (RMPOPT_REGIONS / 64)

static struct entry *tab;
static u64 cap, used;
static u64 model_base; /* region 0 of the scan caches */
static u32 *gen; /* [RMPOPT_REGIONS] bumped by every change in a region */
static u32 *cache_gen; /* scan result valid while == gen + 1 */
static u8 *cache_free;
static u64 *bits; /* [ncores][WORDS_PER_CORE] optimized bits */
static u64 *core_base; /* [ncores] RMPOPT_BASE per core */
static u32 model_ncores;
spinlock_t g_rmp_model_lock; /* hv/snp/rmp_model_internal.h */
static u64 ud_count, scans;

struct rmp_model_inject g_rmp_model_inject;

static void *alloc_bytes(u64 n)
{
	return page_alloc_ptr(ALIGN_UP(n ? n : 1, PAGE_SIZE) / PAGE_SIZE);
}

int rmp_model_init(hpa_t base, u32 ncores, u64 capacity)
{
	u64 c = 1;

	while (c < capacity)
		c <<= 1;
	tab = alloc_bytes(c * sizeof(*tab));
	gen = alloc_bytes(RMPOPT_REGIONS * sizeof(*gen));
	cache_gen = alloc_bytes(RMPOPT_REGIONS * sizeof(*cache_gen));
	cache_free = alloc_bytes(RMPOPT_REGIONS);
	bits = alloc_bytes((u64)ncores * WORDS_PER_CORE * sizeof(u64));
	core_base = alloc_bytes((u64)ncores * sizeof(u64));
	if (!tab || !gen || !cache_gen || !cache_free || !bits || !core_base)
		return -ENOMEM;
	cap = c;
	used = 0;
	model_base = ALIGN_DOWN(base.v, SZ_1G);
	model_ncores = ncores;
	ud_count = scans = 0;
	memset(&g_rmp_model_inject, 0, sizeof(g_rmp_model_inject));
	return 0;
}

static struct entry *slot(u64 pfn, bool create)
{
	u64 key = pfn + 1;

	for (u64 i = (pfn * 0x9e3779b97f4a7c15ULL) >> 20, n = 0; n < cap;
	     i++, n++) {
		struct entry *e = &tab[i & (cap - 1)];

		if (e->key == key)
			return e;
		if (!e->key) {
			if (!create || used + 1 >= cap)
				return NULL;
			used++;
			e->key = key;
			return e;
		}
	}
	return NULL;
}

/* Index of spa's region in a table based at base, or -ERANGE outside
 * 2 TiB. */
static s64 region_idx(u64 base, u64 spa)
{
	u64 b = ALIGN_DOWN(base, SZ_1G);

	if (spa < b || spa - b >= RMPOPT_COVERAGE)
		return -ERANGE;
	return (s64)((spa - b) / SZ_1G);
}

/* An assignment in the region changed: new scan needed, and RMPUPDATE
 * clears the region's bit on every core (pub. 69201). Lock held. */
static void region_changed(u64 spa)
{
	s64 r = region_idx(model_base, spa);

	if (r >= 0)
		__atomic_add_fetch(&gen[r], 1, __ATOMIC_RELEASE);
	for (u32 c = 0; c < model_ncores; c++) {
		s64 k = region_idx(core_base[c], spa);

		if (k >= 0)
			bits[c * WORDS_PER_CORE + k / 64] &= ~BIT(k % 64);
	}
}

/* The assigned 2 MiB entry covering pfn, if any. */
static struct entry *covering_2m(u64 pfn)
{
	struct entry *h = slot(ALIGN_DOWN(pfn, RMP_2M_PAGES), false);

	return h && h->assigned && h->pagesize == RMP_PG_2M ? h : NULL;
}

static u32 check_2m(u64 pfn)
{
	for (u64 i = 1; i < RMP_2M_PAGES; i++) {
		struct entry *e = slot(pfn + i, false);

		if (e && e->assigned)
			return RMP_FAIL_OVERLAP;
	}
	return RMP_OK;
}

static u32 model_update(hpa_t spa, const struct rmp_state *st)
{
	u64 pfn = spa.v >> PAGE_SHIFT;
	struct entry *e, *h;
	u32 rc = RMP_OK;

	if (!IS_ALIGNED(spa.v, PAGE_SIZE) ||
	    (st->pagesize == RMP_PG_2M && !IS_ALIGNED(spa.v, SZ_2M)))
		return RMP_FAIL_INPUT;
	spin_lock(&g_rmp_model_lock);
	if (g_rmp_model_inject.times && g_rmp_model_inject.spa == spa.v) {
		g_rmp_model_inject.times--;
		rc = g_rmp_model_inject.code;
		goto out;
	}
	h = covering_2m(pfn);
	if (h && (st->pagesize != RMP_PG_2M || h->key != pfn + 1)) {
		rc = RMP_FAIL_OVERLAP; /* PSMASH first */
		goto out;
	}
	if (st->pagesize == RMP_PG_2M && (rc = check_2m(pfn)))
		goto out;
	e = slot(pfn, true);
	if (!e) {
		rc = RMP_FAIL_INPUT; /* model full */
		goto out;
	}
	if (e->immutable) {
		rc = RMP_FAIL_PERMISSION;
		goto out;
	}
	e->gpa = st->gpa;
	e->asid = st->asid;
	e->assigned = st->assigned & 1;
	e->pagesize = st->pagesize & 1;
	e->immutable = st->immutable & 1;
	region_changed(spa.v);
out:
	spin_unlock(&g_rmp_model_lock);
	return rc;
}

static u32 model_psmash(hpa_t spa)
{
	u64 pfn = spa.v >> PAGE_SHIFT;
	struct entry *h, head;
	u32 rc = RMP_OK;

	if (!IS_ALIGNED(spa.v, SZ_2M))
		return RMP_FAIL_INPUT;
	spin_lock(&g_rmp_model_lock);
	h = covering_2m(pfn);
	if (!h || used + RMP_2M_PAGES >= cap) {
		rc = RMP_FAIL_INPUT;
		goto out;
	}
	head = *h;
	for (u64 i = 0; i < RMP_2M_PAGES; i++) {
		struct entry *e = slot(pfn + i, true);

		e->gpa = head.gpa + i * PAGE_SIZE;
		e->asid = head.asid;
		e->assigned = 1;
		e->pagesize = RMP_PG_4K;
		e->immutable = head.immutable;
	}
	region_changed(spa.v);
out:
	spin_unlock(&g_rmp_model_lock);
	return rc;
}

/* The expensive part of RMPOPT: read every RMP entry of the region. */
static bool scan_free(u64 region)
{
	bool free = true;

	__atomic_add_fetch(&scans, 1, __ATOMIC_RELAXED);
	for (u64 i = 0; i < cap; i++) {
		const struct entry *e = &tab[i];

		if (e->key && e->assigned &&
		    ALIGN_DOWN((e->key - 1) << PAGE_SHIFT, SZ_1G) == region)
			free = false;
	}
	return free;
}

static bool model_opt(hpa_t region, u64 func)
{
	u32 c = rmpopt_core_of(ipi_this_cpu());
	u64 spa = ALIGN_DOWN(region.v, SZ_1G);
	s64 k, r = region_idx(model_base, spa);
	u64 *word, g0 = 0;
	bool free;

	if (!(core_base[c] & RMPOPT_BASE_EN)) {
		__atomic_add_fetch(&ud_count, 1, __ATOMIC_RELAXED);
		pr_err("rmp-model: RMPOPT on core %u without RMPOPT_BASE (#UD)\n",
		       c);
		return false;
	}
	k = region_idx(core_base[c], spa);
	if (k < 0)
		return false; /* beyond the 2 TiB the core's table covers */
	word = &bits[c * WORDS_PER_CORE + k / 64];
	if (func == RMPOPT_REPORT)
		return __atomic_load_n(word, __ATOMIC_ACQUIRE) & BIT(k % 64);

	if (r >= 0) {
		g0 = __atomic_load_n(&gen[r], __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&cache_gen[r], __ATOMIC_ACQUIRE) == g0 + 1)
			free = cache_free[r];
		else
			free = scan_free(spa);
	} else {
		free = scan_free(spa);
	}
	spin_lock(&g_rmp_model_lock);
	/* Commit only if nothing in the region changed during the scan. */
	if (r < 0 || gen[r] == g0) {
		if (r >= 0) {
			cache_free[r] = free;
			__atomic_store_n(&cache_gen[r], (u32)g0 + 1,
					 __ATOMIC_RELEASE);
		}
		if (free)
			*word |= BIT(k % 64);
	}
	free = *word & BIT(k % 64);
	spin_unlock(&g_rmp_model_lock);
	return free;
}

static void model_set_base(u64 val)
{
	u32 c = rmpopt_core_of(ipi_this_cpu());

	spin_lock(&g_rmp_model_lock);
	if (core_base[c] != val)
		memset(&bits[c * WORDS_PER_CORE], 0,
		       WORDS_PER_CORE * sizeof(u64));
	core_base[c] = val;
	spin_unlock(&g_rmp_model_lock);
}

static void model_forget_opt(const u64 *regions, u32 n)
{
	spin_lock(&g_rmp_model_lock);
	for (u32 i = 0; i < n; i++) {
		s64 r = region_idx(model_base, regions[i]);

		if (r >= 0)
			cache_gen[r] = 0;
		for (u32 c = 0; c < model_ncores; c++) {
			s64 k = region_idx(core_base[c], regions[i]);

			if (k >= 0)
				bits[c * WORDS_PER_CORE + k / 64] &=
					~BIT(k % 64);
		}
	}
	spin_unlock(&g_rmp_model_lock);
}

bool rmp_model_lookup(hpa_t spa, struct rmp_state *out)
{
	u64 pfn = spa.v >> PAGE_SHIFT;
	struct entry *e;
	bool hit = false;

	spin_lock(&g_rmp_model_lock);
	e = covering_2m(pfn);
	if (!e) {
		e = slot(pfn, false);
		if (e && !e->assigned)
			e = NULL;
	}
	if (e) {
		out->gpa = e->gpa + (spa.v - ((e->key - 1) << PAGE_SHIFT));
		out->assigned = e->assigned;
		out->pagesize = e->pagesize;
		out->immutable = e->immutable;
		out->asid = e->asid;
		hit = true;
	}
	spin_unlock(&g_rmp_model_lock);
	return hit;
}

u64 rmp_model_assigned_in_region(hpa_t spa)
{
	u64 region = ALIGN_DOWN(spa.v, SZ_1G), n = 0;

	spin_lock(&g_rmp_model_lock);
	for (u64 i = 0; i < cap; i++) {
		const struct entry *e = &tab[i];

		if (e->key && e->assigned &&
		    ALIGN_DOWN((e->key - 1) << PAGE_SHIFT, SZ_1G) == region)
			n += e->pagesize == RMP_PG_2M ? RMP_2M_PAGES : 1;
	}
	spin_unlock(&g_rmp_model_lock);
	return n;
}

u64 rmp_model_ud_count(void)
{
	return ud_count;
}

u64 rmp_model_scans(void)
{
	return scans;
}

const struct rmp_ops rmp_model_ops = {
	.name = "model (in-memory RMP; no SNP/RMPOPT in this CPU)",
	.update = model_update,
	.psmash = model_psmash,
	.opt = model_opt,
	.set_base = model_set_base,
	.forget_opt = model_forget_opt,
};
