/* arch/paging.c - builds the host identity map (AMD APM vol 2 5.3, 4-level
 * long-mode paging). WB everywhere through PAT entry 0; MMIO gets its
 * uncached type from the firmware's MTRRs. */
#include "arch/paging.h"
#include "hv/mm.h"

static u64 *table(void)
{
	return page_alloc_ptr(1);
}

hpa_t paging_build_identity(u64 top, bool page1g)
{
	u64 *pml4 = table();
	u64 flags = PTE_P | PTE_W | PTE_A;

	if (!pml4)
		return hpa(0);
	top = ALIGN_UP(top, SZ_1G);
	for (u64 a = 0; a < top; a += SZ_1G) {
		u64 i4 = (a >> 39) & 511, i3 = (a >> 30) & 511;
		u64 *pdpt;

		if (!(pml4[i4] & PTE_P)) {
			u64 *t = table();

			if (!t)
				return hpa(0);
			pml4[i4] = ptr_to_hpa(t).v | flags;
		}
		pdpt = hpa_to_ptr(hpa(pml4[i4] & PTE_ADDR_MASK));
		if (page1g && a >= 4 * SZ_1G) {
			pdpt[i3] = a | flags | PTE_PS | PTE_D;
			continue;
		}
		u64 *pd = table();

		if (!pd)
			return hpa(0);
		for (u64 i = 0; i < 512; i++)
			pd[i] = (a + i * SZ_2M) | flags | PTE_PS | PTE_D;
		pdpt[i3] = ptr_to_hpa(pd).v | flags;
	}
	return ptr_to_hpa(pml4);
}

/* Leaf attributes without the address and PS (PAT bit 12 of a large entry
 * is 0 here: PAT entry 0 everywhere). */
static u64 leaf_attr(u64 e)
{
	return (e & 0xfffULL & ~PTE_PS) | (e & PTE_NX);
}

static int split_entry(u64 *e, u64 step, bool leaves_large)
{
	u64 *t = table(), base = *e & PTE_ADDR_MASK & ~(step * 512 - 1);
	u64 attr = leaf_attr(*e) | (leaves_large ? PTE_PS : 0);

	if (!t)
		return -1;
	for (u64 i = 0; i < 512; i++)
		t[i] = (base + i * step) | attr;
	/* Same translations either way: no window where addr is unmapped. */
	__atomic_store_n(e, ptr_to_hpa(t).v | PTE_P | PTE_W | PTE_A,
			 __ATOMIC_RELEASE);
	return 1;
}

int paging_split_4k(hpa_t root, u64 addr)
{
	u64 *pml4 = hpa_to_ptr(root), *pdpt, *pd;
	u64 *e3, *e2;
	int r = 0;

	if (!(pml4[(addr >> 39) & 511] & PTE_P))
		return 0;
	pdpt = hpa_to_ptr(hpa(pml4[(addr >> 39) & 511] & PTE_ADDR_MASK));
	e3 = &pdpt[(addr >> 30) & 511];
	if (!(*e3 & PTE_P))
		return 0;
	if (*e3 & PTE_PS) {
		r = split_entry(e3, SZ_2M, true);
		if (r < 0)
			return r;
	}
	pd = hpa_to_ptr(hpa(*e3 & PTE_ADDR_MASK));
	e2 = &pd[(addr >> 21) & 511];
	if (!(*e2 & PTE_P) || !(*e2 & PTE_PS))
		return r;
	if (split_entry(e2, PAGE_SIZE, false) < 0)
		return -1;
	return r + 1;
}
