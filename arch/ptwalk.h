/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/ptwalk.h - the one page-table walker: an address through a tree of
 * any x86 paging mode (none, 32-bit with PSE/PSE-36, PAE, 4- and 5-level
 * long mode), each mode a table of levels (as Jailhouse's
 * paging_virt2phys() walks its per-mode struct paging). Entries are read
 * through the caller's reader, so one walk serves the host identity map,
 * nested tables (HPAs) and a guest's own tables (GPAs, bounds-checked). */
#ifndef MINHV_ARCH_PTWALK_H
#define MINHV_ARCH_PTWALK_H

#include "arch/pgtable.h"

/* What PS (bit 7) means in an entry above the last level. */
enum pt_ps {
	PT_PS_IGNORED, /* a table all the same (32-bit PDE without PSE) */
	PT_PS_LEAF, /* a large page (2 MiB / 1 GiB) */
	PT_PS_PSE36, /* a 4 MiB page, PA[39:32] in bits 20:13 (APM 5.3.4) */
	PT_PS_RESERVED, /* the walk faults (PML5E, PML4E, PAE PDPTE) */
};

/* One level: the address bits it translates and its entries' layout. An
 * entry of the last level always maps a page (bit 7 is PAT there). */
struct pt_level {
	u8 shift; /* lowest address bit the level translates */
	u8 bits; /* index width: 9, 10 (32-bit) or 2 (the PAE PDPT) */
	u8 size; /* entry bytes: 4 or 8 */
	u8 ps; /* enum pt_ps */
};

#define PT_MAX_LEVELS 5

/* A paging mode: its levels from the top, which bits of the root register
 * (CR3, nCR3) locate the top table, which address bits take part. No
 * levels: addresses translate to themselves (paging off). */
struct pt_mode {
	u64 root_mask;
	u64 va_mask;
	u8 nr;
	struct pt_level level[PT_MAX_LEVELS];
};

extern const struct pt_mode pt_mode_off; /* CR0.PG=0: 32-bit identity */
extern const struct pt_mode pt_mode_32; /* 32-bit, CR4.PSE=0 */
extern const struct pt_mode pt_mode_32_pse; /* 32-bit, CR4.PSE=1 */
extern const struct pt_mode pt_mode_pae; /* CR4.PAE, not long mode */
extern const struct pt_mode pt_mode_long4; /* 4-level long mode, NPT */
extern const struct pt_mode pt_mode_long5; /* CR4.LA57 */

/* How entries are read: the size-byte entry at address addr of the tree's
 * address space (what entries and the root hold) into *e. 0, or -E* (a
 * table outside guest memory) which ends the walk. */
struct pt_reader {
	int (*read)(const void *ctx, u64 addr, unsigned size, u64 *e);
	const void *ctx;
};

/* Where a walk ended. */
struct pt_walk {
	u64 pa; /* the translation (walk returned 0) */
	u64 entry; /* the last entry read: the leaf, or the one that failed */
	u64 entry_addr; /* where that entry is (0 with no levels) */
	u8 level; /* its level, 0 = top */
	u8 shift; /* its level's shift: a leaf maps 1 << shift bytes */
};

/* Translate va through the tree whose top table root & m->root_mask
 * locates. 0 and w->pa; -EFAULT when an entry is not present or has PS
 * where it is reserved; the reader's error. *w says how far the walk got
 * in every case. Permissions and reserved address bits are not checked:
 * callers translate accesses the hardware already allowed, or their own
 * tables. */
int pt_walk(const struct pt_mode *m, u64 root, u64 va,
	    const struct pt_reader *rd, struct pt_walk *w);

/* The reader for trees built with a pt_alloc (the host identity map,
 * nested tables): ctx is the const struct pt_alloc *. Never fails. */
int pt_alloc_read(const void *ctx, u64 addr, unsigned size, u64 *e);

#endif
