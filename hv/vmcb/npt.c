// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/npt.c - build, look up and free nested page tables (APM vol 2,
 * 15.25: long-mode format, U/S=1 at every level, PS for 1G/2M leaves),
 * 4-level, or 5-level when the host runs with CR4.LA57 (the nested walk
 * follows the host's paging mode, as KVM's get_npt_level() says). The tree
 * is made by the shared builder (arch/pgtable.c) from pool pages and read
 * by the shared walker (arch/ptwalk.c). */
#include "hv/vmcb/npt.h"
#include "arch/pgtable.h"
#include "arch/ptwalk.h"
#include "arch/errno.h"
#include "hv/mm.h"

#define FLAGS (PTE_P | PTE_RW | PTE_US)

bool g_npt_5level;

static u64 *table(u64 e)
{
	return hpa_to_ptr(hpa(pte_addr(e)));
}

/* The pool, counting what it hands out in n->table_pages. */
static u64 npt_table_alloc(void *ctx)
{
	struct npt *n = ctx;
	hpa_t p = page_alloc(1, 1);

	if (p.v)
		n->table_pages++;
	return p.v;
}

static u64 *npt_table(void *ctx, u64 addr)
{
	(void)ctx;
	return hpa_to_ptr(hpa(addr));
}

static unsigned leaf_shift(u64 g, u64 h, u64 left, bool allow_1g)
{
	if (allow_1g && IS_ALIGNED(g | h, SZ_1G) && left >= SZ_1G)
		return PT_SHIFT_1G;
	if (IS_ALIGNED(g | h, SZ_2M) && left >= SZ_2M)
		return PT_SHIFT_2M;
	return PT_SHIFT_4K;
}

int npt_build(struct npt *n, hpa_t base, u64 size, bool allow_1g)
{
	const struct pt_alloc a = { npt_table_alloc, npt_table, n };

	*n = (struct npt){ 0 };
	if (!size || !IS_ALIGNED(size | base.v, PAGE_SIZE))
		return -EINVAL;
	n->root = hpa(npt_table_alloc(n));
	if (!n->root.v)
		return -ENOMEM;
	n->top_shift = PT_SHIFT_PML4;
	for (u64 g = 0; g < size;) {
		unsigned s = leaf_shift(g, base.v + g, size - g, allow_1g);

		if (pt_map(&a, n->root.v, g, base.v + g, s, FLAGS, FLAGS)) {
			npt_destroy(n);
			return -ENOMEM;
		}
		if (s == PT_SHIFT_1G)
			n->n1g++;
		else if (s == PT_SHIFT_2M)
			n->n2m++;
		else
			n->n4k++;
		g += 1ULL << s;
	}
	if (g_npt_5level) {
		u64 top = pt_wrap_5level(&a, n->root.v, FLAGS);

		if (!top) {
			npt_destroy(n);
			return -ENOMEM;
		}
		n->root = hpa(top);
		n->top_shift = PT_SHIFT_PML5;
	}
	return 0;
}

static unsigned top_shift(const struct npt *n)
{
	return n->top_shift ? n->top_shift : PT_SHIFT_PML4;
}

int npt_map(struct npt *n, gpa_t g, hpa_t h, u64 size)
{
	const struct pt_alloc a = { npt_table_alloc, npt_table, n };
	u64 root4 = n->root.v;

	if (!n->root.v || !IS_ALIGNED(g.v | h.v | size, PAGE_SIZE))
		return -EINVAL;
	/* 5-level: the PML4 under the PML5's entry 0 (pt_wrap_5level()). */
	if (top_shift(n) == PT_SHIFT_PML5)
		root4 = pte_addr(*(const u64 *)hpa_to_ptr(n->root));
	for (u64 o = 0; o < size; o += PAGE_SIZE) {
		if (pt_map(&a, root4, g.v + o, h.v + o, PT_SHIFT_4K, FLAGS,
			   FLAGS))
			return -ENOMEM;
		n->n4k++;
	}
	return 0;
}

static void free_level(u64 *t, unsigned shift, u64 *freed)
{
	for (unsigned i = 0; shift > PT_SHIFT_4K && i < PT_ENTRIES; i++) {
		if ((t[i] & PTE_P) && !pte_is_leaf(t[i], shift))
			free_level(table(t[i]), shift - 9, freed);
	}
	page_free(ptr_to_hpa(t), 1);
	(*freed)++;
}

void npt_destroy(struct npt *n)
{
	u64 freed = 0;

	if (n->root.v)
		free_level(hpa_to_ptr(n->root), top_shift(n), &freed);
	*n = (struct npt){ 0 };
}

bool npt_lookup(const struct npt *n, gpa_t g, hpa_t *out, u64 *psize)
{
	const struct pt_alloc a = { NULL, npt_table, NULL }; /* read only */
	const struct pt_reader rd = { pt_alloc_read, &a };
	struct pt_walk w;

	if (!n->root.v)
		return false;
	if (pt_walk(top_shift(n) == PT_SHIFT_PML5 ? &pt_mode_long5 :
						    &pt_mode_long4,
		    n->root.v, g.v, &rd, &w))
		return false;
	*out = hpa(w.pa);
	*psize = BIT(w.shift);
	return true;
}
