// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_pgtable.c - the shared 4-level page-table builder
 * (arch/pgtable.c) against a test allocator: levels, flags, PS, table
 * reuse, address-space translation, and running out of pages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "arch/pgtable.h"

#define POOL_PAGES 16
#define TBL (PTE_P | PTE_RW | PTE_US)
#define LEAF (PTE_P | PTE_RW | PTE_A | PTE_D)

/* Pages of one host buffer; "addresses" are offsets + BASE, so the
 * builder must go through table() rather than use them as pointers. */
#define BASE 0x100000ULL
static u8 *pool;
static unsigned used, limit;

static u64 t_alloc(void *ctx)
{
	(void)ctx;
	if (used >= limit)
		return 0;
	memset(pool + used * PAGE_SIZE, 0, PAGE_SIZE); /* contract: zeroed */
	return BASE + used++ * PAGE_SIZE;
}

static u64 *t_table(void *ctx, u64 addr)
{
	(void)ctx;
	assert_true(addr >= BASE && addr < BASE + POOL_PAGES * PAGE_SIZE);
	assert_int_equal(addr % PAGE_SIZE, 0);
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

/* Follow va down from root; returns the entry that maps it and its shift. */
static u64 walk(u64 root, u64 va, unsigned *shift)
{
	u64 *t = t_table(NULL, root);

	for (unsigned s = PT_SHIFT_PML4;; s -= 9) {
		u64 e = t[pt_index(va, s)];

		if (!(e & PTE_P) || pte_is_leaf(e, s)) {
			*shift = s;
			return e;
		}
		assert_int_equal(e & ~PTE_ADDR_MASK, TBL);
		t = t_table(NULL, pte_addr(e));
	}
}

static void test_levels(void **s)
{
	u64 root = t_alloc(NULL), e;
	unsigned sh;

	(void)s;
	/* A 4 KiB page: PML4, PDPT, PD, PT; no PS in the PTE. */
	assert_int_equal(
		pt_map(&ta, root, 0x201000, 0x7000, PT_SHIFT_4K, LEAF, TBL), 0);
	assert_int_equal(used, 4);
	e = walk(root, 0x201000, &sh);
	assert_int_equal(sh, PT_SHIFT_4K);
	assert_int_equal(e, 0x7000 | LEAF);
	/* A 2 MiB page in the same PD reuses PML4, PDPT and PD. */
	assert_int_equal(pt_map(&ta, root, 0x400000, 0x40000000, PT_SHIFT_2M,
				LEAF, TBL),
			 0);
	assert_int_equal(used, 4);
	e = walk(root, 0x400000 + 0x1234, &sh);
	assert_int_equal(sh, PT_SHIFT_2M);
	assert_int_equal(e, 0x40000000 | LEAF | PTE_PS);
	/* A 1 GiB page in a new PML4 slot (512 GiB up): one new PDPT. */
	assert_int_equal(pt_map(&ta, root, 512 * SZ_1G + SZ_1G, 3 * SZ_1G,
				PT_SHIFT_1G, LEAF | PTE_NX, TBL),
			 0);
	assert_int_equal(used, 5);
	e = walk(root, 512 * SZ_1G + SZ_1G + 5, &sh);
	assert_int_equal(sh, PT_SHIFT_1G);
	assert_int_equal(e, 3 * SZ_1G | LEAF | PTE_NX | PTE_PS);
	/* Nothing else is mapped. */
	assert_int_equal(walk(root, 0x200000, &sh), 0);
	assert_int_equal(sh, PT_SHIFT_4K);
	assert_int_equal(walk(root, SZ_1G, &sh), 0);
	assert_int_equal(sh, PT_SHIFT_1G);
}

static void test_range(void **s)
{
	u64 root = t_alloc(NULL), e;
	unsigned sh;

	(void)s;
	assert_int_equal(pt_map_range(&ta, root, SZ_1G - 2 * SZ_2M, 0x80000000,
				      4 * SZ_2M, PT_SHIFT_2M, LEAF, TBL),
			 0);
	/* The range straddles 1 GiB: PML4, PDPT, and two PDs. */
	assert_int_equal(used, 4);
	for (u64 i = 0; i < 4; i++) {
		e = walk(root, SZ_1G - 2 * SZ_2M + i * SZ_2M, &sh);
		assert_int_equal(sh, PT_SHIFT_2M);
		assert_int_equal(e, (0x80000000 + i * SZ_2M) | LEAF | PTE_PS);
	}
	assert_int_equal(walk(root, SZ_1G + 2 * SZ_2M, &sh), 0);
	assert_int_equal(walk(root, SZ_1G - 3 * SZ_2M, &sh), 0);
	/* An empty range maps nothing and allocates nothing. */
	assert_int_equal(
		pt_map_range(&ta, root, 0, 0, 0, PT_SHIFT_4K, LEAF, TBL), 0);
	assert_int_equal(used, 4);
}

static void test_out_of_memory(void **s)
{
	u64 root = t_alloc(NULL);
	unsigned sh;

	(void)s;
	limit = 3; /* root + PDPT + PD: no page left for the PT */
	assert_int_equal(pt_map(&ta, root, 0x3000, 0x3000, PT_SHIFT_4K, LEAF,
				TBL),
			 -ENOMEM);
	assert_int_equal(used, 3);
	/* The tables made so far stay; the leaf was not written. */
	assert_int_equal(walk(root, 0x3000, &sh), 0);
	assert_int_equal(sh, PT_SHIFT_2M);
	/* A 2 MiB page needs no PT: it still fits. */
	assert_int_equal(
		pt_map(&ta, root, SZ_2M, SZ_2M, PT_SHIFT_2M, LEAF, TBL), 0);
	/* A range stops at the first failure. */
	assert_int_equal(pt_map_range(&ta, root, SZ_1G, SZ_1G, 2 * SZ_2M,
				      PT_SHIFT_2M, LEAF, TBL),
			 -ENOMEM);
	assert_int_equal(used, 3);
	limit = 0;
	assert_int_equal(pt_map(&ta, root, 512 * SZ_1G, 0, PT_SHIFT_1G, LEAF,
				TBL),
			 -ENOMEM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_of_memory, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("pgtable", tests, NULL, NULL);
}
