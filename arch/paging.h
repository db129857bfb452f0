/* arch/paging.h - minhv's own identity-mapped host page tables. */
#ifndef MINHV_ARCH_PAGING_H
#define MINHV_ARCH_PAGING_H

#include "arch/pgtable.h"

/* Identity-map [0, top) with 2 MiB pages below 4 GiB (so no large page
 * straddles firmware MTRR boundaries there) and 1 GiB pages above when the
 * CPU has them. Tables come from a (addresses are HPAs, reachable through
 * the identity map); returns the PML4's address, which the caller loads
 * into CR3 on every CPU. 0 when out of memory. */
hpa_t paging_build_identity(u64 top, bool page1g, const struct pt_alloc *a);

#endif
