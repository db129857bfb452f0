/* arch/paging.c - builds the host identity map (AMD APM vol 2 5.3, 4-level
 * long-mode paging). WB everywhere through PAT entry 0; MMIO gets its
 * uncached type from the firmware's MTRRs. */
#include "arch/paging.h"

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
	if (!pt_map_range(a, pml4, 0, 0, low, PT_SHIFT_2M, LEAF_FLAGS,
			  TABLE_FLAGS) ||
	    !pt_map_range(a, pml4, low, low, top - low, PT_SHIFT_1G, LEAF_FLAGS,
			  TABLE_FLAGS))
		return hpa(0);
	return hpa(pml4);
}
