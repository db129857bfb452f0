/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/pte.h - x86 page-table entry bits and level helpers (AMD APM vol 2,
 * 5.3-5.4), one set for host, nested (15.25) and guest tables, with the
 * 32-bit and PAE layouts the walker (arch/ptwalk.c) also reads. */
#ifndef MINHV_ARCH_PTE_H
#define MINHV_ARCH_PTE_H

#include "arch/types.h"

#define PTE_P BIT(0) /* present */
#define PTE_RW BIT(1) /* writable */
#define PTE_US BIT(2) /* user; nested walks are user accesses (15.25.5) */
#define PTE_PWT BIT(3)
#define PTE_PCD BIT(4)
#define PTE_A BIT(5) /* accessed */
#define PTE_D BIT(6) /* dirty (leaves) */
#define PTE_PS BIT(7) /* PDPTE/PDE: a 1 GiB / 2 MiB leaf (PAT in a PTE) */
#define PTE_G BIT(8)
#define PTE_NX BIT(63)
#define PTE_ADDR_MASK 0x000ffffffffff000ULL

/* Levels by the shift of the address bits they translate. */
#define PT_ENTRIES 512
#define PT_SHIFT_4K 12 /* PTE */
#define PT_SHIFT_2M 21 /* PDE */
#define PT_SHIFT_1G 30 /* PDPTE */
#define PT_SHIFT_PML4 39 /* PML4E */
#define PT_SHIFT_PML5 48 /* PML5E (CR4.LA57) */

/* 32-bit paging (APM vol 2 5.3.2-5.3.4): 4-byte entries, 1024 a table; a
 * 4 MiB PDE (CR4.PSE) holds PA[39:32] in bits 20:13 (PSE-36). */
#define PT32_SHIFT_4M 22 /* PDE */
#define PT32_INDEX_BITS 10
#define PDE32_PSE36_SHIFT 13
#define PDE32_PSE36_MASK 0xffULL
/* PAE paging (5.3.3): the PDPT has 4 entries, indexed by bits 31:30. */
#define PT_PAE_PDPT_BITS 2

/* Index of va in the table of the level that translates bits shift+8:shift. */
static inline unsigned pt_index(u64 va, unsigned shift)
{
	return (va >> shift) & (PT_ENTRIES - 1);
}

/* Address of the table or page an entry points to. */
static inline u64 pte_addr(u64 e)
{
	return e & PTE_ADDR_MASK;
}

/* Does entry e, at the level of shift, map a page (rather than a table)? */
static inline bool pte_is_leaf(u64 e, unsigned shift)
{
	return shift == PT_SHIFT_4K || (e & PTE_PS);
}

#endif
