/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vmcb/npt.h - nested page tables (APM vol 2, 15.25): guest-physical
 * [0, size) onto one contiguous host block, nothing else (-> #NPF). */
#ifndef MINHV_HV_VMCB_NPT_H
#define MINHV_HV_VMCB_NPT_H

#include "arch/types.h"

/* Set once at boot when the host runs 5-level paging (CR4.LA57): nested
 * tables then get a fifth level too. */
extern bool g_npt_5level;

struct npt {
	hpa_t root; /* nCR3 */
	unsigned top_shift; /* PT_SHIFT_PML4, or PT_SHIFT_PML5 */
	u64 table_pages; /* page-table pages taken from the pool */
	u64 n1g, n2m, n4k; /* leaves by size */
};

/* Map gpa [0, size) -> hpa [base, base + size) with the largest pages
 * that both alignments allow (1 GiB only with allow_1g). Tables come
 * from the pool. Returns 0, -EINVAL (size 0 or not page aligned) or
 * -ENOMEM (pool exhausted); nothing stays allocated on error. */
int npt_build(struct npt *n, hpa_t base, u64 size, bool allow_1g);
/* Map gpa [g, g + size) -> hpa [h, h + size) with 4 KiB pages into a
 * built tree (a device's memory beyond guest RAM). 0, -EINVAL (not page
 * aligned) or -ENOMEM. */
int npt_map(struct npt *n, gpa_t g, hpa_t h, u64 size);
/* Return every table page to the pool. */
void npt_destroy(struct npt *n);
/* Translate; false when g is not mapped. *psize gets the leaf size. */
bool npt_lookup(const struct npt *n, gpa_t g, hpa_t *out, u64 *psize);

#endif
