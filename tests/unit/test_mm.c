// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_mm.c - the page pool (hv/mm.c): counts, alignment,
 * contiguity, zeroing, exhaustion, and the invariant checks on free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/mm.h"
#include "arch/errno.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/state_hooks.h"

#define POOL_PAGES 1024
static void *pool;

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_console_clear();
	mm_reset();
	pool = aligned_alloc(1 << 21, POOL_PAGES * PAGE_SIZE);
	assert_non_null(pool);
	memset(pool, 0xa5, POOL_PAGES * PAGE_SIZE);
	assert_int_equal(mm_add_region(ptr_to_hpa(pool), POOL_PAGES), 0);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	mm_reset();
	free(pool);
	return 0;
}

static void test_counts(void **s)
{
	u64 total = mm_total_pages();
	hpa_t a, b;

	(void)s;
	/* One bitmap page out of 1024 pages. */
	assert_int_equal(total, POOL_PAGES - 1);
	assert_int_equal(mm_free_pages(), total);
	a = page_alloc(3, 1);
	b = page_alloc(1, 1);
	assert_true(a.v && b.v);
	assert_int_equal(mm_free_pages(), total - 4);
	page_free(a, 3);
	assert_int_equal(mm_free_pages(), total - 1);
	page_free(b, 1);
	assert_int_equal(mm_free_pages(), total);
}

static void test_zeroed_and_inside(void **s)
{
	u8 *p;

	(void)s;
	p = page_alloc_ptr(2);
	assert_non_null(p);
	assert_true((uintptr_t)p >= (uintptr_t)pool + PAGE_SIZE);
	assert_true((uintptr_t)p + 2 * PAGE_SIZE <=
		    (uintptr_t)pool + POOL_PAGES * PAGE_SIZE);
	for (size_t i = 0; i < 2 * PAGE_SIZE; i++)
		assert_int_equal(p[i], 0);
}

static void test_alignment(void **s)
{
	hpa_t small = page_alloc(1, 1);
	hpa_t big = page_alloc(512, 512);

	(void)s;
	assert_true(small.v);
	assert_true(big.v);
	assert_true(IS_ALIGNED(big.v, SZ_2M));
	/* Non-power-of-two alignment and zero sizes are refused. */
	assert_int_equal(page_alloc(1, 3).v, 0);
	assert_int_equal(page_alloc(0, 1).v, 0);
}

static void test_no_overlap(void **s)
{
	hpa_t a[16];

	(void)s;
	for (int i = 0; i < 16; i++) {
		a[i] = page_alloc(4, 1);
		assert_true(a[i].v);
		for (int j = 0; j < i; j++)
			assert_true(a[i].v + 4 * PAGE_SIZE <= a[j].v ||
				    a[j].v + 4 * PAGE_SIZE <= a[i].v);
	}
}

static void test_exhaustion(void **s)
{
	u64 total = mm_total_pages();
	hpa_t all;

	(void)s;
	assert_int_equal(page_alloc(total + 1, 1).v, 0);
	all = page_alloc(total, 1);
	assert_true(all.v);
	assert_int_equal(mm_free_pages(), 0);
	assert_int_equal(page_alloc(1, 1).v, 0);
	page_free(all, total);
	assert_int_equal(mm_free_pages(), total);
}

static void test_reuse_after_free(void **s)
{
	hpa_t a = page_alloc(8, 1), b;

	(void)s;
	page_free(a, 8);
	b = page_alloc(8, 1);
	assert_int_equal(a.v, b.v); /* first fit gives the same pages back */
}

static void test_double_free_stops(void **s)
{
	hpa_t a = page_alloc(1, 1);

	(void)s;
	page_free(a, 1);
	assert_int_equal(FAKE_CATCH_STOP(page_free(a, 1)), 1);
	assert_true(fake_console_has("double free"));
}

/* The bitmap is handled a word (64 pages) at a time: ranges that cross
 * words, a hole one page too small, alignment past a used page. */
static void test_word_boundaries(void **s)
{
	hpa_t a = page_alloc(1, 1), b = page_alloc(100, 1), c, d, e, f;
	u64 base = a.v;

	(void)s;
	c = page_alloc(1, 1);
	assert_int_equal(b.v, base + PAGE_SIZE);
	assert_int_equal(c.v, base + 101 * PAGE_SIZE);
	page_free(b, 100);
	d = page_alloc(101, 1); /* the 100-page hole is too small */
	assert_int_equal(d.v, base + 102 * PAGE_SIZE);
	e = page_alloc(100, 1); /* exactly the hole */
	assert_int_equal(e.v, base + PAGE_SIZE);
	/* 64-page (256 KiB) alignment: the first aligned start past c. */
	page_free(e, 100);
	f = page_alloc(2, 64);
	assert_true(IS_ALIGNED(f.v, 64 * PAGE_SIZE));
	assert_true(f.v < base + 101 * PAGE_SIZE); /* fits in the hole */
	assert_int_equal(f.v, ALIGN_UP(base + PAGE_SIZE, 64 * PAGE_SIZE));
	page_free(f, 2);
	page_free(a, 1);
	page_free(c, 1);
	page_free(d, 101);
	assert_int_equal(mm_free_pages(), mm_total_pages());
}

/* A double free inside a range that crosses words names the first page
 * that was already free. */
static void test_double_free_names_page(void **s)
{
	hpa_t a = page_alloc(130, 1);
	char want[64];

	(void)s;
	page_free(hpa(a.v + 70 * PAGE_SIZE), 1);
	assert_int_equal(FAKE_CATCH_STOP(page_free(a, 130)), 1);
	snprintf(want, sizeof(want), "double free of page %#llx",
		 (unsigned long long)(a.v + 70 * PAGE_SIZE));
	assert_true(fake_console_has(want));
}

static void test_foreign_free_stops(void **s)
{
	(void)s;
	assert_int_equal(FAKE_CATCH_STOP(page_free(hpa(0x1000), 1)), 1);
	assert_true(fake_console_has("not from the pool"));
}

static void test_region_rules(void **s)
{
	(void)s;
	/* Unaligned base and a region too small for its own bitmap. */
	assert_int_equal(mm_add_region(hpa(0x1234), 100), -EINVAL);
	assert_int_equal(mm_add_region(hpa(0x10000), 1), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zeroed_and_inside, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_word_boundaries, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_double_free_names_page,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_alignment, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_overlap, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_exhaustion, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reuse_after_free, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_double_free_stops, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_foreign_free_stops, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_region_rules, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("mm", tests, NULL, NULL);
}
