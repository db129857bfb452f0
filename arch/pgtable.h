/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/pgtable.h - the one 4-level page-table builder: maps pages of a given
 * size and flags into a tree whose table pages come from the caller's
 * allocator (host identity map, nested page tables, guest page tables). */
#ifndef MINHV_ARCH_PGTABLE_H
#define MINHV_ARCH_PGTABLE_H

#include "arch/pte.h"

/* Where table pages come from and how to reach them: addresses are what
 * entries hold (HPA for host and nested tables, GPA for a guest's own). */
struct pt_alloc {
	/* A zeroed, 4 KiB aligned table page; 0 when out of memory. */
	u64 (*alloc)(void *ctx);
	/* A pointer through which the table at addr can be written. */
	u64 *(*table)(void *ctx, u64 addr);
	void *ctx;
};

/* The entry at address addr (what entries hold) of a tree built with a. */
static inline u64 *pt_entry(const struct pt_alloc *a, u64 addr)
{
	return a->table(a->ctx, addr & ~(PAGE_SIZE - 1)) +
	       (addr & (PAGE_SIZE - 1)) / sizeof(u64);
}

/* Map the page of size 1 << shift (PT_SHIFT_4K/2M/1G) at va onto pa, both
 * aligned to it, into the tree at root, creating tables on the way with
 * table_flags; the leaf gets leaf_flags, plus PTE_PS above 4 KiB. A leaf
 * already there is overwritten. 0, or -ENOMEM when the allocator ran out
 * (tables made so far stay in the tree). */
int pt_map(const struct pt_alloc *a, u64 root, u64 va, u64 pa, unsigned shift,
	   u64 leaf_flags, u64 table_flags);
/* pt_map() for each page of [va, va + size) onto [pa, pa + size); size a
 * multiple of the page size. 0 or -ENOMEM. */
int pt_map_range(const struct pt_alloc *a, u64 root, u64 va, u64 pa, u64 size,
		 unsigned shift, u64 leaf_flags, u64 table_flags);

/* 5-level paging (CR4.LA57) above a 4-level tree: a new top table whose
 * first entry (linear or guest-physical addresses below 2^48) points to
 * the 4-level root, with table_flags. Returns the new root, 0 when out of
 * memory. */
u64 pt_wrap_5level(const struct pt_alloc *a, u64 root4, u64 table_flags);

#endif
