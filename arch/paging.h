/* arch/paging.h - minhv's own identity-mapped host page tables. */
#ifndef MINHV_ARCH_PAGING_H
#define MINHV_ARCH_PAGING_H

#include "arch/types.h"

#define PTE_P (1ULL << 0)
#define PTE_W (1ULL << 1)
#define PTE_U (1ULL << 2)
#define PTE_PWT (1ULL << 3)
#define PTE_PCD (1ULL << 4)
#define PTE_A (1ULL << 5)
#define PTE_D (1ULL << 6)
#define PTE_PS (1ULL << 7)
#define PTE_G (1ULL << 8)
#define PTE_NX (1ULL << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ULL

/* Identity-map [0, top) with 2 MiB pages below 4 GiB (so no large page
 * straddles firmware MTRR boundaries there) and 1 GiB pages above when the
 * CPU has them. Tables come from the page pool; returns the PML4's address,
 * which the caller loads into CR3 on every CPU. 0 when out of memory. */
hpa_t paging_build_identity(u64 top, bool page1g);
/* Make the identity map under root map addr's 2 MiB with 4 KiB entries:
 * a 1 GiB entry becomes 2 MiB entries, then the 2 MiB entry 4 KiB ones
 * (same attributes, PAT entry 0). Returns the tables allocated (1 or 2:
 * the caller flushes every CPU's TLB), 0 when already 4 KiB or not
 * mapped, -1 out of memory. */
int paging_split_4k(hpa_t root, u64 addr);

#endif
