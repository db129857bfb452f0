// SPDX-License-Identifier: GPL-2.0-only
/* hv/mm.c - bitmap page allocator over a handful of contiguous regions.
 * First fit with alignment; double frees and foreign frees stop the machine
 * (a broken invariant, not something an outside party can cause). */
#include "hv/mm.h"
#include "hv/mm_internal.h"
#include "arch/errno.h"
#include "arch/spinlock.h"
#include "lib/string.h"
#include "hv/log.h"

struct mm_pool g_mm; /* hv/mm_internal.h */

/* The bits [i, i + n) of a word: the mask of the part of the range in
 * word i / 64, and how many of the n bits that is. */
static u64 word_mask(u64 i, u64 n, u64 *taken)
{
	u64 lo = i % 64, k = n < 64 - lo ? n : 64 - lo;

	*taken = k;
	return (k == 64 ? ~0ULL : (1ULL << k) - 1) << lo;
}

/* A word at a time: a 256 MiB guest is 65536 pages, 1024 words. */
static void set_range(u64 *bm, u64 i, u64 n, bool used)
{
	while (n) {
		u64 k, m = word_mask(i, n, &k);

		if (used)
			bm[i / 64] |= m;
		else
			bm[i / 64] &= ~m;
		i += k;
		n -= k;
	}
}

int mm_add_region(hpa_t base, u64 npages)
{
	struct mm_region *r;
	u64 bm_pages;

	if (g_mm.nregions == MM_MAX_REGIONS || !IS_ALIGNED(base.v, PAGE_SIZE))
		return -EINVAL;
	/* One bit per page; the bitmap takes the region's first pages. */
	bm_pages = ALIGN_UP((npages + 7) / 8, PAGE_SIZE) / PAGE_SIZE;
	if (npages <= bm_pages)
		return -ENOSPC;
	r = &g_mm.regions[g_mm.nregions++];
	r->bitmap = hpa_to_ptr(base);
	r->base = base.v + bm_pages * PAGE_SIZE;
	r->npages = npages - bm_pages;
	memset(r->bitmap, 0, bm_pages * PAGE_SIZE);
	g_mm.free_pages += r->npages;
	g_mm.total_pages += r->npages;
	return 0;
}

/* 0 when [i, i + n) is free, else the index after its last used page
 * (where the next fit can start). */
static u64 range_used(const struct mm_region *r, u64 i, u64 n)
{
	u64 end = i + n, last = 0;

	while (i < end) {
		u64 k, w = r->bitmap[i / 64] & word_mask(i, end - i, &k);

		if (w)
			last = (i & ~63ULL) + 64 - (u64)__builtin_clzll(w);
		i += k;
	}
	return last;
}

hpa_t page_alloc(u64 npages, u64 align_pages)
{
	hpa_t res = hpa(0);

	if (!npages || !align_pages || (align_pages & (align_pages - 1)))
		return res;
	spin_lock(&g_mm.lock);
	for (unsigned ri = 0; ri < g_mm.nregions && !res.v; ri++) {
		struct mm_region *r = &g_mm.regions[ri];
		u64 align = align_pages * PAGE_SIZE;
		u64 first = (ALIGN_UP(r->base, align) - r->base) / PAGE_SIZE;

		for (u64 i = first; i + npages <= r->npages;) {
			u64 used = range_used(r, i, npages);

			if (used) { /* the next aligned start past it */
				i = first + ALIGN_UP(used - first, align_pages);
				continue;
			}
			set_range(r->bitmap, i, npages, true);
			g_mm.free_pages -= npages;
			res = hpa(r->base + i * PAGE_SIZE);
			break;
		}
	}
	spin_unlock(&g_mm.lock);
	if (res.v)
		memset(hpa_to_ptr(res), 0, npages * PAGE_SIZE);
	return res;
}

void *page_alloc_ptr(u64 npages)
{
	hpa_t a = page_alloc(npages, 1);

	return a.v ? hpa_to_ptr(a) : NULL;
}

void page_free(hpa_t base, u64 npages)
{
	spin_lock(&g_mm.lock);
	for (unsigned ri = 0; ri < g_mm.nregions; ri++) {
		struct mm_region *r = &g_mm.regions[ri];
		u64 i = (base.v - r->base) / PAGE_SIZE;

		if (base.v < r->base || i + npages > r->npages)
			continue;
		for (u64 k = 0; k < npages;) {
			u64 n, m = word_mask(i + k, npages - k, &n);

			if ((r->bitmap[(i + k) / 64] & m) != m) {
				u64 at = k +
					 (u64)__builtin_ctzll(
						 ~r->bitmap[(i + k) / 64] & m) -
					 (i + k) % 64;

				spin_unlock(&g_mm.lock);
				panic("mm: double free of page %#llx",
				      (unsigned long long)(base.v +
							   at * PAGE_SIZE));
			}
			k += n;
		}
		set_range(r->bitmap, i, npages, false);
		g_mm.free_pages += npages;
		spin_unlock(&g_mm.lock);
		return;
	}
	spin_unlock(&g_mm.lock);
	panic("mm: free of %#llx not from the pool",
	      (unsigned long long)base.v);
}

u64 mm_free_pages(void)
{
	return g_mm.free_pages;
}

u64 mm_total_pages(void)
{
	return g_mm.total_pages;
}

static u64 pool_table_alloc(void *ctx)
{
	(void)ctx;
	return page_alloc(1, 1).v;
}

static u64 *pool_table(void *ctx, u64 addr)
{
	(void)ctx;
	return hpa_to_ptr(hpa(addr));
}

const struct pt_alloc mm_pt_alloc = { pool_table_alloc, pool_table, NULL };
