// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_paging.c - the host identity map (arch/paging.c) and the
 * 5-level hand-over: under CR4.LA57 the CR3 root is a PML5 whose one entry
 * leads to the same 4-level map, so every address translates as before;
 * without it the PML4 itself. Walked here as the CPU would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cr.h"
#include "arch/paging.h"

#define POOL_PAGES 64
#define BASE 0x100000ULL
static u8 *pool;
static unsigned used, limit;

static u64 t_alloc(void *ctx)
{
	(void)ctx;
	if (used >= limit)
		return 0;
	memset(pool + used * PAGE_SIZE, 0, PAGE_SIZE);
	return BASE + used++ * PAGE_SIZE;
}

static u64 *t_table(void *ctx, u64 addr)
{
	(void)ctx;
	assert_true(addr >= BASE && addr < BASE + POOL_PAGES * PAGE_SIZE);
	return (u64 *)(pool + (addr - BASE));
}

static const struct pt_alloc ta = { t_alloc, t_table, NULL };

static int setup(void **s)
{
	(void)s;
	pool = aligned_alloc(PAGE_SIZE, POOL_PAGES * PAGE_SIZE);
	used = 0;
	limit = POOL_PAGES;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(pool);
	return 0;
}

/* The physical address va translates to from root, walking levels from
 * top_shift down (48 with LA57, 39 without); ~0 when not mapped. */
static u64 translate(u64 root, unsigned top_shift, u64 va)
{
	u64 *t = t_table(NULL, root);

	for (unsigned s = top_shift;; s -= 9) {
		u64 e = t[pt_index(va, s)], size = 1ULL << s;

		if (!(e & PTE_P))
			return ~0ULL;
		if (pte_is_leaf(e, s))
			return (pte_addr(e) & ~(size - 1)) | (va & (size - 1));
		t = t_table(NULL, pte_addr(e));
	}
}

static const u64 probes[] = { 0,	  0x1234,	  0x7fe00000 + 0x55,
			      0xfee00000, 5 * SZ_1G + 77, 15 * SZ_1G + 4095 };

static void test_four_level_without_la57(void **s)
{
	hpa_t pml4 = paging_build_identity(16 * SZ_1G, true, &ta);
	unsigned before;

	(void)s;
	assert_true(pml4.v);
	before = used;
	assert_int_equal(paging_root(pml4, CR4_PAE, &ta).v, pml4.v);
	assert_int_equal(used, before); /* nothing allocated */
	for (unsigned i = 0; i < ARRAY_SIZE(probes); i++)
		assert_int_equal(translate(pml4.v, PT_SHIFT_PML4, probes[i]),
				 probes[i]);
}

static void test_la57_hand_over_wraps(void **s)
{
	hpa_t pml4 = paging_build_identity(16 * SZ_1G, true, &ta);
	hpa_t root = paging_root(pml4, CR4_PAE | CR4_LA57, &ta);
	u64 *pml5 = t_table(NULL, root.v);

	(void)s;
	assert_true(root.v && root.v != pml4.v);
	/* one entry, the PML4, as a table (not a leaf) */
	assert_int_equal(pte_addr(pml5[0]), pml4.v);
	assert_true(pml5[0] & PTE_P);
	assert_true(pml5[0] & PTE_RW);
	assert_false(pml5[0] & PTE_PS);
	for (unsigned i = 1; i < PT_ENTRIES; i++)
		assert_int_equal(pml5[i], 0);
	/* the same identity map, walked as a 5-level CPU walks it */
	for (unsigned i = 0; i < ARRAY_SIZE(probes); i++)
		assert_int_equal(translate(root.v, PT_SHIFT_PML5, probes[i]),
				 probes[i]);
	/* and a 4-level root loaded under LA57 would not be: its entry 0 is
	 * walked as a PML5 entry, one level off */
	assert_int_not_equal(translate(pml4.v, PT_SHIFT_PML5, 5 * SZ_1G + 77),
			     5 * SZ_1G + 77);
}

static void test_la57_out_of_memory(void **s)
{
	hpa_t pml4 = paging_build_identity(4 * SZ_1G, false, &ta);

	(void)s;
	limit = used;
	assert_int_equal(paging_root(pml4, CR4_LA57, &ta).v, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_four_level_without_la57),
		T(test_la57_hand_over_wraps),
		T(test_la57_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
