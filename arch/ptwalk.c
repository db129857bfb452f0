// SPDX-License-Identifier: GPL-2.0-only
/* arch/ptwalk.c - the page-table walker and its paging modes (AMD APM vol 2
 * 5.2-5.3 and 15.25 for nested tables; SDM vol 3A 4.3-4.5). */
#include "arch/ptwalk.h"
#include "arch/cr.h"
#include "arch/errno.h"

#define L32 0xffffffffULL /* 32-bit modes: linear addresses are 32 bits */

/* clang-format off */
const struct pt_mode pt_mode_off = { 0, L32, 0, { { 0 } } };
const struct pt_mode pt_mode_32 = { CR3_ADDR32_MASK, L32, 2, {
	{ PT32_SHIFT_4M, PT32_INDEX_BITS, 4, PT_PS_IGNORED },
	{ PT_SHIFT_4K, PT32_INDEX_BITS, 4, PT_PS_IGNORED },
} };
const struct pt_mode pt_mode_32_pse = { CR3_ADDR32_MASK, L32, 2, {
	{ PT32_SHIFT_4M, PT32_INDEX_BITS, 4, PT_PS_PSE36 },
	{ PT_SHIFT_4K, PT32_INDEX_BITS, 4, PT_PS_IGNORED },
} };
const struct pt_mode pt_mode_pae = { CR3_PAE_MASK, L32, 3, {
	{ PT_SHIFT_1G, PT_PAE_PDPT_BITS, 8, PT_PS_RESERVED },
	{ PT_SHIFT_2M, 9, 8, PT_PS_LEAF },
	{ PT_SHIFT_4K, 9, 8, PT_PS_IGNORED },
} };
const struct pt_mode pt_mode_long4 = { CR3_ADDR_MASK, ~0ULL, 4, {
	{ PT_SHIFT_PML4, 9, 8, PT_PS_RESERVED },
	{ PT_SHIFT_1G, 9, 8, PT_PS_LEAF },
	{ PT_SHIFT_2M, 9, 8, PT_PS_LEAF },
	{ PT_SHIFT_4K, 9, 8, PT_PS_IGNORED },
} };
const struct pt_mode pt_mode_long5 = { CR3_ADDR_MASK, ~0ULL, 5, {
	{ PT_SHIFT_PML5, 9, 8, PT_PS_RESERVED },
	{ PT_SHIFT_PML4, 9, 8, PT_PS_RESERVED },
	{ PT_SHIFT_1G, 9, 8, PT_PS_LEAF },
	{ PT_SHIFT_2M, 9, 8, PT_PS_LEAF },
	{ PT_SHIFT_4K, 9, 8, PT_PS_IGNORED },
} };
/* clang-format on */

/* The page a leaf entry maps, at the level of l. */
static u64 leaf_base(const struct pt_level *l, u64 e)
{
	u64 base = pte_addr(e) & ~(BIT(l->shift) - 1);

	if (l->ps == PT_PS_PSE36)
		base |= ((e >> PDE32_PSE36_SHIFT) & PDE32_PSE36_MASK) << 32;
	return base;
}

int pt_walk(const struct pt_mode *m, u64 root, u64 va,
	    const struct pt_reader *rd, struct pt_walk *w)
{
	u64 table = root & m->root_mask;

	va &= m->va_mask;
	*w = (struct pt_walk){ .pa = va };
	for (unsigned i = 0; i < m->nr; i++) {
		const struct pt_level *l = &m->level[i];
		bool last = i + 1 == m->nr;
		u64 e;
		int r;

		w->level = i;
		w->shift = l->shift;
		w->entry_addr =
			table +
			((va >> l->shift) & (BIT(l->bits) - 1)) * l->size;
		w->entry = 0;
		r = rd->read(rd->ctx, w->entry_addr, l->size, &e);
		if (r)
			return r;
		w->entry = e;
		if (!(e & PTE_P))
			return -EFAULT;
		if (!last && (e & PTE_PS) && l->ps == PT_PS_RESERVED)
			return -EFAULT;
		if (last || ((e & PTE_PS) && l->ps != PT_PS_IGNORED)) {
			w->pa = leaf_base(l, e) | (va & (BIT(l->shift) - 1));
			return 0;
		}
		table = pte_addr(e);
	}
	return 0; /* no levels: va itself */
}

int pt_alloc_read(const void *ctx, u64 addr, unsigned size, u64 *e)
{
	const struct pt_alloc *a = ctx;
	const u8 *t = (const u8 *)a->table(a->ctx, addr & ~(PAGE_SIZE - 1));
	u64 v = 0;

	for (unsigned i = 0; i < size; i++)
		v |= (u64)t[(addr & (PAGE_SIZE - 1)) + i] << (8 * i);
	*e = v;
	return 0;
}
