// SPDX-License-Identifier: GPL-2.0-only
/* arch/paging.c - builds the host identity map (AMD APM vol 2 5.3, 4-level
 * long-mode paging, under a PML5 when the firmware runs 5-level paging).
 * WB everywhere through PAT entry 0; MMIO gets its uncached type from the
 * firmware's MTRRs. */
#include "arch/paging.h"
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

static int split_entry(const struct pt_alloc *a, u64 *e, u64 step,
		       bool leaves_large)
{
	u64 pa = a->alloc(a->ctx), *t;
	u64 base = *e & PTE_ADDR_MASK & ~(step * 512 - 1);
	u64 attr = leaf_attr(*e) | (leaves_large ? PTE_PS : 0);

	if (!pa)
		return -ENOMEM;
	t = a->table(a->ctx, pa);
	for (u64 i = 0; i < 512; i++)
		t[i] = (base + i * step) | attr;
	/* Same translations either way: no window where addr is unmapped. */
	__atomic_store_n(e, pa | TABLE_FLAGS, __ATOMIC_RELEASE);
	return 1;
}

int paging_split_4k(hpa_t root, u64 addr, const struct pt_alloc *a)
{
	u64 *pml4 = a->table(a->ctx, root.v), *pdpt, *pd;
	u64 *e3, *e2;
	int r = 0;

	if (!(pml4[(addr >> 39) & 511] & PTE_P))
		return 0;
	pdpt = a->table(a->ctx, pml4[(addr >> 39) & 511] & PTE_ADDR_MASK);
	e3 = &pdpt[(addr >> 30) & 511];
	if (!(*e3 & PTE_P))
		return 0;
	if (*e3 & PTE_PS) {
		r = split_entry(a, e3, SZ_2M, true);
		if (r < 0)
			return r;
	}
	pd = a->table(a->ctx, *e3 & PTE_ADDR_MASK);
	e2 = &pd[(addr >> 21) & 511];
	if (!(*e2 & PTE_P) || !(*e2 & PTE_PS))
		return r;
	if (split_entry(a, e2, PAGE_SIZE, false) < 0)
		return -ENOMEM;
	return r + 1;
}
