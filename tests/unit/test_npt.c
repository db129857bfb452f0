// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_npt.c - nested page tables: large pages where both
 * alignments allow, exactly the guest's memory mapped, holes fault, and
 * teardown returns every table page (APM vol 2, 15.25). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/mm.h"
#include "arch/pte.h"
#include "arch/errno.h"
#include "hv/vmcb/npt.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/state_hooks.h"

#define POOL (64ULL << 20)
static void *pool;

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	mm_reset();
	pool = aligned_alloc(SZ_2M, POOL);
	assert_int_equal(mm_add_region(ptr_to_hpa(pool), POOL / PAGE_SIZE), 0);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(pool);
	return 0;
}

/* Every page of [0, size) maps to base + gpa; nothing past it does. */
static void check_exact(const struct npt *n, u64 base, u64 size)
{
	hpa_t h;
	u64 ps;

	for (u64 g = 0; g < size; g += PAGE_SIZE) {
		if (!npt_lookup(n, gpa(g + 0x123), &h, &ps))
			fail_msg("gpa %#llx unmapped", (unsigned long long)g);
		assert_int_equal(h.v, base + g + 0x123);
	}
	assert_false(npt_lookup(n, gpa(size), &h, &ps));
	assert_false(npt_lookup(n, gpa(size + SZ_2M), &h, &ps));
	assert_false(npt_lookup(n, gpa(1ULL << 40), &h, &ps));
}

static void test_2m_aligned(void **s)
{
	struct npt n;
	u64 before = mm_free_pages();
	u64 base = 0x40000000; /* host address, never dereferenced */
	hpa_t h;
	u64 ps;

	(void)s;
	assert_int_equal(npt_build(&n, hpa(base), 8 * SZ_2M, false), 0);
	assert_int_equal(n.n2m, 8);
	assert_int_equal(n.n4k, 0);
	assert_int_equal(n.n1g, 0);
	assert_int_equal(n.table_pages, 3); /* PML4, PDPT, PD */
	assert_true(npt_lookup(&n, gpa(SZ_2M + 5), &h, &ps));
	assert_int_equal(ps, SZ_2M);
	check_exact(&n, base, 8 * SZ_2M);
	/* U/S, RW, P at every level of the walk. */
	u64 *pml4 = hpa_to_ptr(n.root);
	assert_int_equal(pml4[0] & 7, 7);
	u64 *pdpt = hpa_to_ptr(hpa(pml4[0] & PTE_ADDR_MASK));
	assert_int_equal(pdpt[0] & 7, 7);
	assert_int_equal(pdpt[1], 0); /* nothing above 1 GiB */
	u64 *pd = hpa_to_ptr(hpa(pdpt[0] & PTE_ADDR_MASK));
	assert_int_equal(pd[0] & (PTE_PS | 7), PTE_PS | 7);
	assert_int_equal(pd[8], 0); /* the hole after the end */
	npt_destroy(&n);
	assert_int_equal(mm_free_pages(), before);
}

static void test_host_misaligned(void **s)
{
	struct npt n;
	u64 before = mm_free_pages();
	u64 base = 0x40000000 + 0x1000; /* host not 2M aligned */

	(void)s;
	assert_int_equal(npt_build(&n, hpa(base), 2 * SZ_2M, true), 0);
	assert_int_equal(n.n2m, 0);
	assert_int_equal(n.n4k, 1024);
	check_exact(&n, base, 2 * SZ_2M);
	npt_destroy(&n);
	assert_int_equal(mm_free_pages(), before);
}

static void test_mixed_tail(void **s)
{
	struct npt n;
	u64 before = mm_free_pages();
	u64 size = 3 * SZ_2M + 5 * PAGE_SIZE;

	(void)s;
	assert_int_equal(npt_build(&n, hpa(0x80000000), size, true), 0);
	assert_int_equal(n.n2m, 3);
	assert_int_equal(n.n4k, 5);
	check_exact(&n, 0x80000000, size);
	npt_destroy(&n);
	assert_int_equal(mm_free_pages(), before);
}

static void test_1g(void **s)
{
	struct npt n;
	u64 before = mm_free_pages();
	u64 size = SZ_1G + 2 * SZ_2M;
	hpa_t h;
	u64 ps;

	(void)s;
	assert_int_equal(npt_build(&n, hpa(4 * SZ_1G), size, true), 0);
	assert_int_equal(n.n1g, 1);
	assert_int_equal(n.n2m, 2);
	assert_true(npt_lookup(&n, gpa(SZ_1G - 8), &h, &ps));
	assert_int_equal(ps, SZ_1G);
	assert_int_equal(h.v, 5 * SZ_1G - 8);
	assert_true(npt_lookup(&n, gpa(SZ_1G + SZ_2M), &h, &ps));
	assert_int_equal(ps, SZ_2M);
	assert_false(npt_lookup(&n, gpa(size), &h, &ps));
	npt_destroy(&n);
	/* Without 1G pages the same range takes 2M leaves. */
	assert_int_equal(npt_build(&n, hpa(4 * SZ_1G), size, false), 0);
	assert_int_equal(n.n1g, 0);
	assert_int_equal(n.n2m, 514);
	npt_destroy(&n);
	assert_int_equal(mm_free_pages(), before);
}

static void test_bad_args_and_oom(void **s)
{
	struct npt n;
	u64 before = mm_free_pages();

	(void)s;
	assert_int_equal(npt_build(&n, hpa(0x40000000), 0, false), -EINVAL);
	assert_int_equal(npt_build(&n, hpa(0x40000000), 0x1800, false),
			 -EINVAL);
	assert_int_equal(npt_build(&n, hpa(0x40000800), SZ_2M, false), -EINVAL);
	/* Exhaust the pool: the build fails and leaves nothing allocated. */
	hpa_t hog = page_alloc(before - 2, 1);
	assert_true(hog.v != 0);
	assert_int_equal(npt_build(&n, hpa(0x40001000), SZ_2M, false), -ENOMEM);
	assert_int_equal(n.root.v, 0);
	page_free(hog, before - 2);
	assert_int_equal(mm_free_pages(), before);
}

/* A host running 5-level paging walks nested tables in 5 levels too (KVM's
 * get_npt_level()): the same map under a PML5, looked up and freed whole. */
static void test_5level_host(void **s)
{
	struct npt n;
	u64 before = mm_free_pages(), *pml5;
	u64 base = 0x40000000;

	(void)s;
	g_npt_5level = true;
	assert_int_equal(npt_build(&n, hpa(base), 8 * SZ_2M, false), 0);
	assert_int_equal(n.top_shift, PT_SHIFT_PML5);
	/* PML5 + PML4 + PDPT + PD */
	assert_int_equal(n.table_pages, 4);
	pml5 = hpa_to_ptr(n.root);
	assert_true(pml5[0] & PTE_P);
	assert_true(pml5[0] & PTE_US); /* nested walks are user accesses */
	for (unsigned i = 1; i < PT_ENTRIES; i++)
		assert_int_equal(pml5[i], 0);
	check_exact(&n, base, 8 * SZ_2M);
	npt_destroy(&n);
	assert_int_equal(mm_free_pages(), before);
	g_npt_5level = false;
	/* 4-level again: one table fewer */
	assert_int_equal(npt_build(&n, hpa(base), 8 * SZ_2M, false), 0);
	assert_int_equal(n.table_pages, 3);
	assert_int_equal(n.top_shift, PT_SHIFT_PML4);
	check_exact(&n, base, 8 * SZ_2M);
	npt_destroy(&n);
	assert_int_equal(mm_free_pages(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_2m_aligned),
		cmocka_unit_test(test_host_misaligned),
		cmocka_unit_test(test_mixed_tail),
		cmocka_unit_test(test_1g),
		cmocka_unit_test(test_bad_args_and_oom),
		cmocka_unit_test(test_5level_host),
	};
	return cmocka_run_group_tests_name("npt", tests, setup, teardown);
}
