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

static bool test_bit(const u64 *bm, u64 i)
{
	return (bm[i / 64] >> (i % 64)) & 1;
}

static void set_range(u64 *bm, u64 i, u64 n, bool used)
{
	for (; n; n--, i++) {
		if (used)
			bm[i / 64] |= 1ULL << (i % 64);
		else
			bm[i / 64] &= ~(1ULL << (i % 64));
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

static bool range_free(const struct mm_region *r, u64 i, u64 n)
{
	for (u64 k = 0; k < n; k++)
		if (test_bit(r->bitmap, i + k))
			return false;
	return true;
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

		for (u64 i = first; i + npages <= r->npages; i += align_pages) {
			if (!range_free(r, i, npages))
				continue;
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
		for (u64 k = 0; k < npages; k++) {
			if (!test_bit(r->bitmap, i + k)) {
				spin_unlock(&g_mm.lock);
				panic("mm: double free of page %#llx",
				      (unsigned long long)(base.v +
							   k * PAGE_SIZE));
			}
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
