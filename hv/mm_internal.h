/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/mm_internal.h - the page pool's state, private to hv/mm.c and the
 * unit tests (which start each test from an empty pool, tests/doubles). */
#ifndef MINHV_HV_MM_INTERNAL_H
#define MINHV_HV_MM_INTERNAL_H

#include "arch/spinlock.h"
#include "hv/mm.h"

struct mm_region {
	u64 base; /* first usable page (after the bitmap) */
	u64 npages;
	u64 *bitmap; /* 1 = used */
};

struct mm_pool {
	struct mm_region regions[MM_MAX_REGIONS];
	unsigned nregions;
	u64 free_pages, total_pages;
	spinlock_t lock;
};
extern struct mm_pool g_mm;

#endif
