/* SPDX-License-Identifier: GPL-2.0-only */
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
/* What CR3 must hold for the identity map at pml4 under the paging mode
 * cr4 selects: pml4 itself, or with CR4.LA57 (5-level paging, which the
 * firmware may hand over in and which cannot change while paging is on) a
 * PML5 above it. 0 when out of memory. */
hpa_t paging_root(hpa_t pml4, u64 cr4, const struct pt_alloc *a);
/* Make the identity map under root map addr's 2 MiB with 4 KiB entries:
 * a 1 GiB entry becomes 2 MiB entries, then the 2 MiB entry 4 KiB ones
 * (same attributes, PAT entry 0). Tables come from a. Returns the tables
 * allocated (1 or 2: the caller flushes every CPU's TLB), 0 when already
 * 4 KiB or not mapped, -ENOMEM when a ran out. */
int paging_split_4k(hpa_t root, u64 addr, const struct pt_alloc *a);

#endif
