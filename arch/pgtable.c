// SPDX-License-Identifier: GPL-2.0-only
/* arch/pgtable.c - the 4-level page-table builder (AMD APM vol 2, 5.3:
 * PML4 -> PDPT -> PD -> PT, PS in a PDPTE or PDE ends the walk early), and
 * the PML5 above it for 5-level paging (5.3.2). */
#include "arch/pgtable.h"
#include "arch/errno.h"

int pt_map(const struct pt_alloc *a, u64 root, u64 va, u64 pa, unsigned shift,
	   u64 leaf_flags, u64 table_flags)
{
	u64 *t = a->table(a->ctx, root);

	for (unsigned s = PT_SHIFT_PML4; s > shift; s -= 9) {
		u64 *e = &t[pt_index(va, s)];

		if (!(*e & PTE_P)) {
			u64 next = a->alloc(a->ctx);

			if (!next)
				return -ENOMEM;
			*e = next | table_flags;
		}
		t = a->table(a->ctx, pte_addr(*e));
	}
	t[pt_index(va, shift)] = pa | leaf_flags |
				 (shift > PT_SHIFT_4K ? PTE_PS : 0);
	return 0;
}

int pt_map_range(const struct pt_alloc *a, u64 root, u64 va, u64 pa, u64 size,
		 unsigned shift, u64 leaf_flags, u64 table_flags)
{
	for (u64 off = 0; off < size; off += 1ULL << shift) {
		int r = pt_map(a, root, va + off, pa + off, shift, leaf_flags,
			       table_flags);

		if (r)
			return r;
	}
	return 0;
}

u64 pt_wrap_5level(const struct pt_alloc *a, u64 root4, u64 table_flags)
{
	u64 top = a->alloc(a->ctx);

	if (!top)
		return 0;
	/* APM vol 2 5.3.2: PML5 index = bits 56:48; everything minhv maps
	 * lies below 2^48, under entry 0. */
	a->table(a->ctx, top)[0] = root4 | table_flags;
	return top;
}
