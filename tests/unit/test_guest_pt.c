// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_guest_pt.c - the guest's identity page tables
 * (hv/guest/pt.c): walked like the CPU would, for several memory sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "include/minhv/guest_layout.h"
#include "hv/guest/pt.h"
#include "arch/pte.h"
#include "arch/errno.h"
#include "tests/doubles/fake_console.h"

/* Only the table area is ever written, so a buffer ending there stands in
 * for guest memory of any size (ASan catches a write beyond it). */
#define BUF_SIZE (GUEST_PT_GPA + GUEST_PT_MAX)
#define PATTERN 0x5a
#define NOT_MAPPED (~0ULL)

static u8 *buf;

static int setup(void **s)
{
	(void)s;
	buf = malloc(BUF_SIZE);
	assert_non_null(buf);
	memset(buf, PATTERN, BUF_SIZE);
	fake_console_clear();
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(buf);
	return 0;
}

/* A table the walk may read: inside the area guest_pt_build() owns. */
static const u64 *tbl(u64 e)
{
	u64 a = e & PTE_ADDR_MASK;

	assert_true(a >= GUEST_PT_GPA && a + PAGE_SIZE <= BUF_SIZE);
	assert_true((e & (PTE_P | PTE_RW)) == (PTE_P | PTE_RW));
	return (const u64 *)(buf + a);
}

/* Translate va as the MMU would; *leaf gets the leaf entry's size. */
static u64 walk(u64 cr3, u64 va, u64 *page)
{
	const u64 *pml4 = tbl(cr3 | PTE_P | PTE_RW);
	u64 e = pml4[(va >> 39) & 511];

	if (!(e & PTE_P))
		return NOT_MAPPED;
	e = tbl(e)[(va >> 30) & 511];
	if (!(e & PTE_P))
		return NOT_MAPPED;
	assert_false(e & PTE_PS); /* no 1 GiB pages */
	e = tbl(e)[(va >> 21) & 511];
	if (!(e & PTE_P))
		return NOT_MAPPED;
	if (e & PTE_PS) {
		assert_true(e & PTE_RW);
		assert_int_equal(e & (SZ_2M - 1) & PTE_ADDR_MASK, 0);
		*page = SZ_2M;
		return (e & PTE_ADDR_MASK) + (va & (SZ_2M - 1));
	}
	e = tbl(e)[(va >> 12) & 511];
	if (!(e & PTE_P))
		return NOT_MAPPED;
	assert_true(e & PTE_RW);
	assert_false(e & BIT(63)); /* executable */
	*page = PAGE_SIZE;
	return (e & PTE_ADDR_MASK) + (va & (PAGE_SIZE - 1));
}

/* Count every present leaf reachable from cr3, in bytes mapped. */
static u64 mapped_bytes(u64 cr3)
{
	const u64 *pml4 = tbl(cr3 | PTE_P | PTE_RW), *pdpt, *pd, *pt;
	u64 total = 0;

	for (int i = 0; i < 512; i++) {
		if (!(pml4[i] & PTE_P))
			continue;
		pdpt = tbl(pml4[i]);
		for (int j = 0; j < 512; j++) {
			if (!(pdpt[j] & PTE_P))
				continue;
			pd = tbl(pdpt[j]);
			for (int k = 0; k < 512; k++) {
				if (!(pd[k] & PTE_P))
					continue;
				if (pd[k] & PTE_PS) {
					total += SZ_2M;
					continue;
				}
				pt = tbl(pd[k]);
				for (int l = 0; l < 512; l++)
					total += (pt[l] & PTE_P) ? PAGE_SIZE :
								   0;
			}
		}
	}
	return total;
}

/* Build for mem_size and check: identity over [0, mem) except page 0,
 * 2 MiB pages wherever a whole aligned 2 MiB above the first fits, nothing
 * beyond, nothing written outside the table area. */
static void check_layout(u64 mem_size)
{
	gpa_t cr3 = { 1 };
	u64 a, page, used = guest_pt_size(mem_size);

	assert_int_equal(guest_pt_build(buf, mem_size, &cr3), 0);
	assert_int_equal(cr3.v, GUEST_PT_GPA);
	assert_true(used <= GUEST_PT_MAX);
	for (a = 0; a < GUEST_PT_GPA; a++)
		assert_int_equal(buf[a], PATTERN);
	for (a = GUEST_PT_GPA + used; a < BUF_SIZE; a++)
		assert_int_equal(buf[a], PATTERN);

	assert_int_equal(walk(cr3.v, 0, &page), NOT_MAPPED);
	assert_int_equal(walk(cr3.v, 0xfff, &page), NOT_MAPPED);
	for (a = PAGE_SIZE; a < mem_size; a += page) {
		assert_int_equal(walk(cr3.v, a, &page), a);
		assert_int_equal(walk(cr3.v, a + page - 1, &page),
				 a + page - 1);
		if (a >= SZ_2M && a + SZ_2M <= mem_size)
			assert_int_equal(page, SZ_2M);
		else
			assert_int_equal(page, PAGE_SIZE);
	}
	assert_int_equal(a, mem_size);
	assert_int_equal(walk(cr3.v, mem_size, &page), NOT_MAPPED);
	assert_int_equal(walk(cr3.v, ALIGN_UP(mem_size, SZ_2M), &page),
			 NOT_MAPPED);
	assert_int_equal(walk(cr3.v, ALIGN_UP(mem_size, SZ_1G), &page),
			 NOT_MAPPED);
	assert_int_equal(walk(cr3.v, 1ULL << 39, &page), NOT_MAPPED);
	assert_int_equal(mapped_bytes(cr3.v), mem_size - PAGE_SIZE);
	assert_string_equal(fake_console_text(), "");
}

static void test_2m(void **s)
{
	(void)s;
	check_layout(SZ_2M);
}

static void test_small_4k_only(void **s)
{
	(void)s;
	check_layout(GUEST_PT_GPA + 4 * PAGE_SIZE); /* tables just fit */
}

static void test_64m(void **s)
{
	(void)s;
	check_layout(64ULL << 20);
}

static void test_unaligned_tail(void **s)
{
	(void)s;
	check_layout(SZ_2M * 3 + 7 * PAGE_SIZE);
}

static void test_crosses_1g(void **s)
{
	(void)s;
	check_layout(SZ_1G + SZ_2M + PAGE_SIZE);
	assert_int_equal(guest_pt_size(SZ_1G + SZ_2M + PAGE_SIZE),
			 6 * PAGE_SIZE); /* PML4, PDPT, 2 PD, 2 PT */
}

/* The largest size that fits: 1 PML4 + 1 PDPT + 13 PDs + 1 PT = 64 KiB. */
static void test_largest(void **s)
{
	(void)s;
	check_layout(13 * SZ_1G);
	assert_int_equal(guest_pt_size(13 * SZ_1G), GUEST_PT_MAX);
}

static void expect_error(u64 mem_size, int err, const char *msg)
{
	gpa_t cr3 = { 77 };

	fake_console_clear();
	assert_int_equal(guest_pt_build(buf, mem_size, &cr3), err);
	assert_int_equal(cr3.v, 77);
	if (!fake_console_has(msg))
		fail_msg("expected \"%s\" in \"%s\"", msg, fake_console_text());
	for (u64 a = 0; a < BUF_SIZE; a++)
		assert_int_equal(buf[a], PATTERN);
}

static void test_errors(void **s)
{
	(void)s;
	expect_error(
		13 * SZ_1G + SZ_2M, -E2BIG,
		"need 0x11000 bytes of page tables, more than the 0x10000");
	expect_error(1ULL << 40, -E2BIG, "more than the 0x10000 reserved");
	expect_error(~0ULL & ~0xfffULL, -E2BIG, "more than the 0x10000");
	expect_error(0, -EINVAL, "not a non-zero multiple of 4 KiB");
	expect_error(SZ_2M + 1, -EINVAL, "not a non-zero multiple of 4 KiB");
	expect_error(
		GUEST_PT_GPA + 3 * PAGE_SIZE, -EINVAL,
		"memory size 0x13000 cannot hold page tables at 0x10000 + 0x4000");
}

/* guest_pt_map_page0(): page 0 joins the tables through the PTE the walk
 * finds; tables that do not lead there (a large page, a table outside
 * guest memory) are refused and nothing is written. */
static void test_map_page0(void **s)
{
	gpa_t cr3;
	u64 page = 0, *pml4, *pdpt, *pd, e;

	(void)s;
	assert_int_equal(guest_pt_build(buf, 64ULL << 20, &cr3), 0);
	assert_int_equal(walk(cr3.v, 0, &page), NOT_MAPPED);
	assert_int_equal(guest_pt_map_page0(buf, BUF_SIZE, cr3), 0);
	assert_int_equal(walk(cr3.v, 0x123, &page), 0x123);
	assert_int_equal(page, PAGE_SIZE);
	assert_int_equal(mapped_bytes(cr3.v), 64ULL << 20);
	/* Again: the same PTE, written again. */
	assert_int_equal(guest_pt_map_page0(buf, BUF_SIZE, cr3), 0);
	assert_int_equal(mapped_bytes(cr3.v), 64ULL << 20);

	pml4 = (u64 *)(buf + cr3.v);
	pdpt = (u64 *)(buf + (pml4[0] & PTE_ADDR_MASK));
	pd = (u64 *)(buf + (pdpt[0] & PTE_ADDR_MASK));
	/* The first 2 MiB as a large page: no PTE to write. */
	e = pd[0];
	pd[0] = PTE_P | PTE_RW | PTE_PS;
	assert_int_equal(guest_pt_map_page0(buf, BUF_SIZE, cr3), -EINVAL);
	assert_int_equal(pd[0], PTE_P | PTE_RW | PTE_PS);
	/* The PT outside guest memory: never read, never written. */
	pd[0] = (BUF_SIZE + PAGE_SIZE) | PTE_P | PTE_RW;
	assert_int_equal(guest_pt_map_page0(buf, BUF_SIZE, cr3), -EINVAL);
	pd[0] = e;
	/* Guest memory ending inside the PT: its entry 0 is still inside. */
	assert_int_equal(guest_pt_map_page0(buf, (e & PTE_ADDR_MASK) + 8, cr3),
			 0);
	assert_int_equal(guest_pt_map_page0(buf, (e & PTE_ADDR_MASK) + 7, cr3),
			 -EINVAL);
	/* The PDPT not present: no PTE either. */
	e = pml4[0];
	pml4[0] &= ~PTE_P;
	assert_int_equal(guest_pt_map_page0(buf, BUF_SIZE, cr3), -EINVAL);
	pml4[0] = e;
	/* CR3 outside guest memory. */
	assert_int_equal(guest_pt_map_page0(buf, BUF_SIZE, gpa(BUF_SIZE)),
			 -EINVAL);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_2m),	    T(test_small_4k_only),
		T(test_64m),	    T(test_unaligned_tail),
		T(test_crosses_1g), T(test_largest),
		T(test_errors),	    T(test_map_page0),
	};

	return cmocka_run_group_tests_name("guest_pt", tests, NULL, NULL);
}
