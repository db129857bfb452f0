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
