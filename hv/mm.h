/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/mm.h - the physical page pool: every page minhv uses after hand-off
 * comes from memory it allocated from UEFI before ExitBootServices. */
#ifndef MINHV_HV_MM_H
#define MINHV_HV_MM_H

#include "arch/pgtable.h"
#include "arch/types.h"

#define MM_MAX_REGIONS 8

/* Add [base, base + npages * 4 KiB) to the pool. Returns 0, -EINVAL when
 * the region table is full or base is not page-aligned, or -ENOSPC when
 * the region is too small for its own bitmap, which lives inside it. */
int mm_add_region(hpa_t base, u64 npages);
/* npages contiguous, zeroed pages aligned to align_pages (a power of two).
 * Returns hpa 0 when nothing fits. */
hpa_t page_alloc(u64 npages, u64 align_pages);
void page_free(hpa_t base, u64 npages);
/* Allocate and return a pointer (identity map), NULL when out of memory. */
void *page_alloc_ptr(u64 npages);
/* Page-table pages from the pool, for arch/pgtable.h (ctx unused). */
extern const struct pt_alloc mm_pt_alloc;
u64 mm_free_pages(void);
u64 mm_total_pages(void);

#endif
