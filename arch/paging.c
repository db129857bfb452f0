// SPDX-License-Identifier: GPL-2.0-only
/* arch/paging.c - builds the host identity map (AMD APM vol 2 5.3, 4-level
 * long-mode paging, under a PML5 when the firmware runs 5-level paging).
 * WB everywhere through PAT entry 0; MMIO gets its uncached type from the
 * firmware's MTRRs. */
#include "arch/paging.h"
#include "arch/ptwalk.h"
#include "arch/cr.h"
#include "arch/errno.h"

#define TABLE_FLAGS (PTE_P | PTE_RW | PTE_A)
#define LEAF_FLAGS (PTE_P | PTE_RW | PTE_A | PTE_D)

hpa_t paging_build_identity(u64 top, bool page1g, const struct pt_alloc *a)
{
	u64 pml4 = a->alloc(a->ctx);
	u64 low;

	if (!pml4)
		return hpa(0);
	top = ALIGN_UP(top, SZ_1G);
	low = page1g && top > 4 * SZ_1G ? 4 * SZ_1G : top;
	if (pt_map_range(a, pml4, 0, 0, low, PT_SHIFT_2M, LEAF_FLAGS,
			 TABLE_FLAGS) ||
	    pt_map_range(a, pml4, low, low, top - low, PT_SHIFT_1G, LEAF_FLAGS,
			 TABLE_FLAGS))
		return hpa(0);
	return hpa(pml4);
}

hpa_t paging_root(hpa_t pml4, u64 cr4, const struct pt_alloc *a)
{
	if (!(cr4 & CR4_LA57))
		return pml4;
	return hpa(pt_wrap_5level(a, pml4.v, TABLE_FLAGS));
}

/* Leaf attributes without the address and PS (PAT bit 12 of a large entry
 * is 0 here: PAT entry 0 everywhere). */
static u64 leaf_attr(u64 e)
{
	return (e & 0xfffULL & ~PTE_PS) | (e & PTE_NX);
}

/* Replace the leaf e, which maps 1 << shift bytes, by a table of 512
 * entries mapping the same bytes one level down (leaves of 1 << (shift -
 * 9) bytes, PS set unless they are 4 KiB). 0 or -ENOMEM. */
static int split_entry(const struct pt_alloc *a, u64 *e, unsigned shift)
{
	u64 pa = a->alloc(a->ctx), *t;
	u64 step = BIT(shift - 9);
	u64 base = pte_addr(*e) & ~(BIT(shift) - 1);
	u64 attr = leaf_attr(*e) | (shift - 9 > PT_SHIFT_4K ? PTE_PS : 0);

	if (!pa)
		return -ENOMEM;
	t = a->table(a->ctx, pa);
	for (u64 i = 0; i < PT_ENTRIES; i++)
		t[i] = (base + i * step) | attr;
	/* Same translations either way: no window where addr is unmapped. */
	__atomic_store_n(e, pa | TABLE_FLAGS, __ATOMIC_RELEASE);
	return 0;
}

int paging_split_4k(hpa_t root, u64 addr, const struct pt_alloc *a)
{
	const struct pt_reader rd = { pt_alloc_read, a };
	struct pt_walk w;
	int n = 0;

	/* Each walk finds the leaf that maps addr: a 1 GiB one becomes 2 MiB
	 * leaves, then the 2 MiB one 4 KiB leaves. */
	while (!pt_walk(&pt_mode_long4, root.v, addr, &rd, &w) &&
	       w.shift > PT_SHIFT_4K) {
		if (split_entry(a, pt_entry(a, w.entry_addr), w.shift))
			return -ENOMEM;
		n++;
	}
	return n;
}
