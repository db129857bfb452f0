// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_ptwalk.c - the one page-table walker (arch/ptwalk.c),
 * table-driven over every paging mode: each case writes a few entries into
 * a small memory, walks one address and checks the result, the page size
 * and where the walk stopped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/paging.h"
#include "arch/ptwalk.h"

#define MEM 0x40000ULL /* tables live in [0, 256 KiB) */
#define P PTE_P
#define PS PTE_PS

static u8 ram[MEM];
static unsigned reads;

/* Bounds-checked like guest memory: an entry not wholly inside is -ERANGE
 * and never read. */
static int ram_read(const void *ctx, u64 a, unsigned size, u64 *e)
{
	u64 v = 0;

	assert_ptr_equal(ctx, ram);
	reads++;
	if (a >= MEM || size > MEM - a)
		return -ERANGE;
	memcpy(&v, ram + a, size);
	*e = v;
	return 0;
}

static const struct pt_reader rd = { ram_read, ram };

struct ent {
	u64 addr, val;
	u8 size; /* 4 or 8 */
};

struct walk_case {
	const char *name;
	const struct pt_mode *mode;
	u64 root, va;
	struct ent e[6];
	int err; /* 0 or the expected -E* */
	u64 pa; /* when err == 0 */
	u8 shift, level; /* where the walk ended */
	u64 entry_addr;
	unsigned reads; /* entries read */
};

/* Table pages used by the cases. */
#define T0 0x1000ULL
#define T1 0x2000ULL
#define T2 0x3000ULL
#define T3 0x4000ULL
#define T4 0x5000ULL

/* clang-format off */
static const struct walk_case cases[] = {
	/* Paging off: the address itself, 32 bits of it, nothing read. */
	{ "off", &pt_mode_off, 0, 0x100012345ULL, { { 0 } },
	  0, 0x12345, 0, 0, 0, 0 },

	/* 32-bit paging: PDE (bits 31:22), PTE (21:12), 4-byte entries. */
	{ "32: 4 KiB page", &pt_mode_32, T0 | 0x18, 0x405123,
	  { { T0 + 1 * 4, T1 | P, 4 }, { T1 + 5 * 4, 0x345000 | P, 4 } },
	  0, 0x345123, 12, 1, T1 + 5 * 4, 2 },
	{ "32: va bits 63:32 ignored", &pt_mode_32, T0, 0xffffffff00405123ULL,
	  { { T0 + 1 * 4, T1 | P, 4 }, { T1 + 5 * 4, 0x345000 | P, 4 } },
	  0, 0x345123, 12, 1, T1 + 5 * 4, 2 },
	{ "32: PS ignored without CR4.PSE", &pt_mode_32, T0, 0x812345,
	  { { T0 + 2 * 4, T1 | P | PS | (3 << 13), 4 },
	    { (T1 | (3 << 13)) + 0x12 * 4, 0x7000 | P, 4 } },
	  0, 0x7345, 12, 1, (T1 | (3 << 13)) + 0x12 * 4, 2 },
	{ "32: PDE not present", &pt_mode_32, T0, 0xc00000,
	  { { 0 } }, -EFAULT, 0, 22, 0, T0 + 3 * 4, 1 },
	{ "32: PTE not present", &pt_mode_32, T0, 0x406000,
	  { { T0 + 1 * 4, T1 | P, 4 }, { T1 + 6 * 4, 0x346000, 4 } },
	  -EFAULT, 0, 12, 1, T1 + 6 * 4, 2 },

	/* 32-bit with CR4.PSE: a PS PDE is a 4 MiB page, PSE-36 bits 20:13
	 * are PA[39:32]. */
	{ "32 PSE: 4 MiB page", &pt_mode_32_pse, T0, 0x812345,
	  { { T0 + 2 * 4, 0x400000 | P | PS, 4 } },
	  0, 0x412345, 22, 0, T0 + 2 * 4, 1 },
	{ "32 PSE: PSE-36", &pt_mode_32_pse, T0, 0x812345,
	  { { T0 + 2 * 4, 0xffc00000 | P | PS | (0xa5 << 13), 4 } },
	  0, 0xa5ffc12345ULL, 22, 0, T0 + 2 * 4, 1 },
	{ "32 PSE: 4 KiB page", &pt_mode_32_pse, T0, 0x405123,
	  { { T0 + 1 * 4, T1 | P, 4 }, { T1 + 5 * 4, 0x345000 | P | PS, 4 } },
	  0, 0x345123, 12, 1, T1 + 5 * 4, 2 }, /* bit 7 of a PTE is PAT */

	/* PAE: a 4-entry PDPT at CR3[31:5], then PD and PT of 8-byte entries. */
	{ "PAE: 2 MiB page", &pt_mode_pae, T0 + 0x20, 0x2abcde,
	  { { T0 + 0x20, T1 | P, 8 }, { T1 + 1 * 8, 0x600000 | P | PS, 8 } },
	  0, 0x6abcde, 21, 1, T1 + 8, 2 },
	{ "PAE: 4 KiB page, NX", &pt_mode_pae, T0 + 0x20, 0xc0403abc,
	  { { T0 + 0x20 + 3 * 8, T1 | P, 8 }, { T1 + 2 * 8, T2 | P, 8 },
	    { T2 + 3 * 8, 0x123456789000ULL | P | BIT(63), 8 } },
	  0, 0x123456789abcULL, 12, 2, T2 + 3 * 8, 3 },
	{ "PAE: PDPTE not present", &pt_mode_pae, T0 + 0x20, 0xc0000000,
	  { { 0 } }, -EFAULT, 0, 30, 0, T0 + 0x20 + 3 * 8, 1 },
	{ "PAE: PS in a PDPTE is reserved", &pt_mode_pae, T0, 0x40000000,
	  { { T0 + 8, 0x40000000 | P | PS, 8 } },
	  -EFAULT, 0, 30, 0, T0 + 8, 1 },

	/* 4-level long mode (and nested tables). */
	{ "long4: 4 KiB page", &pt_mode_long4, T0 | 0xfff,
	  0xffff800000201234ULL,
	  { { T0 + 256 * 8, T1 | P, 8 }, { T1, T2 | P, 8 },
	    { T2 + 8, T3 | P, 8 }, { T3 + 8, 0x9000 | P | PS, 8 } },
	  0, 0x9234, 12, 3, T3 + 8, 4 },
	{ "long4: 1 GiB page", &pt_mode_long4, T0, 0x40012345,
	  { { T0, T1 | P, 8 }, { T1 + 8, 0x80000000ULL | P | PS | BIT(12), 8 } },
	  0, 0x80012345ULL, 30, 1, T1 + 8, 2 }, /* bit 12 is PAT */
	{ "long4: 2 MiB page", &pt_mode_long4, T0, 0x412345,
	  { { T0, T1 | P, 8 }, { T1, T2 | P, 8 },
	    { T2 + 2 * 8, 0x200000 | P | PS, 8 } },
	  0, 0x212345, 21, 2, T2 + 2 * 8, 3 },
	{ "long4: PS in a PML4E is reserved", &pt_mode_long4, T0, 1ULL << 39,
	  { { T0 + 8, T1 | P | PS, 8 } }, -EFAULT, 0, 39, 0, T0 + 8, 1 },
	{ "long4: PDE not present", &pt_mode_long4, T0, 0x600000,
	  { { T0, T1 | P, 8 }, { T1, T2 | P, 8 } },
	  -EFAULT, 0, 21, 2, T2 + 3 * 8, 3 },
	{ "long4: table outside memory", &pt_mode_long4, T0, 0x1000,
	  { { T0, T1 | P, 8 }, { T1, (MEM + 0x1000) | P, 8 } },
	  -ERANGE, 0, 21, 2, MEM + 0x1000, 3 },
	{ "long4: root outside memory", &pt_mode_long4, 0xfffffffff000ULL, 0,
	  { { 0 } }, -ERANGE, 0, 39, 0, 0xfffffffff000ULL, 1 },

	/* 5-level long mode: a PML5 above. */
	{ "long5: 4 KiB page", &pt_mode_long5, T0, 0x3ff8000201234ULL,
	  { { T0 + 3 * 8, T4 | P, 8 }, { T4 + 511 * 8, T1 | P, 8 },
	    { T1, T2 | P, 8 }, { T2 + 8, T3 | P, 8 },
	    { T3 + 8, 0xabc000 | P, 8 } },
	  0, 0xabc234, 12, 4, T3 + 8, 5 },
	{ "long5: PS in a PML5E is reserved", &pt_mode_long5, T0, 0,
	  { { T0, T1 | P | PS, 8 } }, -EFAULT, 0, 48, 0, T0, 1 },
	{ "long5: 1 GiB page", &pt_mode_long5, T0, 0x7fc0000000ULL + 0x5,
	  { { T0, T4 | P, 8 }, { T4, T1 | P, 8 },
	    { T1 + 511 * 8, 0x3c0000000ULL | P | PS, 8 } },
	  0, 0x3c0000005ULL, 30, 2, T1 + 511 * 8, 3 },
};
/* clang-format on */

static void run_case(void **s)
{
	const struct walk_case *c = *s;
	struct pt_walk w;
	int r;

	memset(ram, 0, sizeof(ram));
	for (unsigned i = 0; i < ARRAY_SIZE(c->e) && c->e[i].size; i++)
		memcpy(ram + c->e[i].addr, &c->e[i].val, c->e[i].size);
	reads = 0;
	memset(&w, 0x5a, sizeof(w));
	r = pt_walk(c->mode, c->root, c->va, &rd, &w);
	assert_int_equal(r, c->err);
	if (!r)
		assert_int_equal(w.pa, c->pa);
	assert_int_equal(w.shift, c->shift);
	assert_int_equal(w.level, c->level);
	assert_int_equal(w.entry_addr, c->entry_addr);
	assert_int_equal(reads, c->reads);
}

/* Entries the walk stopped at are reported as read: the leaf itself, the
 * not-present entry, nothing where the reader failed. */
static void test_entry_reported(void **s)
{
	struct pt_walk w;
	u64 e = T1 | P, leaf = 0x9000 | P | PTE_RW;

	(void)s;
	memset(ram, 0, sizeof(ram));
	memcpy(ram + T0, &e, 8);
	e = T2 | P;
	memcpy(ram + T1, &e, 8);
	e = T3 | P;
	memcpy(ram + T2, &e, 8);
	memcpy(ram + T3, &leaf, 8);
	assert_int_equal(pt_walk(&pt_mode_long4, T0, 0x123, &rd, &w), 0);
	assert_int_equal(w.entry, leaf);
	leaf &= ~P;
	memcpy(ram + T3, &leaf, 8);
	assert_int_equal(pt_walk(&pt_mode_long4, T0, 0x123, &rd, &w), -EFAULT);
	assert_int_equal(w.entry, leaf);
	e = MEM | P;
	memcpy(ram + T2, &e, 8);
	assert_int_equal(pt_walk(&pt_mode_long4, T0, 0x123, &rd, &w), -ERANGE);
	assert_int_equal(w.entry, 0);
}

/* pt_alloc_read(): the entries of a tree the builder made, through its
 * table() (addresses are not pointers). */
#define BASE 0x700000ULL
#define POOL_PAGES 16
static u8 pool[POOL_PAGES * PAGE_SIZE] __attribute__((aligned(4096)));
static unsigned used, limit = POOL_PAGES;

static u64 t_alloc(void *ctx)
{
	(void)ctx;
	if (used == limit)
		return 0;
	memset(pool + used * PAGE_SIZE, 0, PAGE_SIZE);
	return BASE + used++ * PAGE_SIZE;
}

static u64 *t_table(void *ctx, u64 addr)
{
	(void)ctx;
	assert_true(addr >= BASE && addr < BASE + sizeof(pool));
	return (u64 *)(pool + (addr - BASE));
}

static void test_alloc_reader(void **s)
{
	const struct pt_alloc a = { t_alloc, t_table, NULL };
	const struct pt_reader ar = { pt_alloc_read, &a };
	struct pt_walk w;
	u64 root;

	(void)s;
	used = 0;
	root = t_alloc(NULL);
	assert_int_equal(pt_map(&a, root, 0x40000000, 0x1234000, PT_SHIFT_4K,
				P | PTE_RW, P | PTE_RW),
			 0);
	assert_int_equal(pt_map(&a, root, 0x200000, 0x800000, PT_SHIFT_2M, P,
				P | PTE_RW),
			 0);
	assert_int_equal(pt_walk(&pt_mode_long4, root, 0x40000abc, &ar, &w), 0);
	assert_int_equal(w.pa, 0x1234abc);
	assert_int_equal(w.shift, PT_SHIFT_4K);
	assert_ptr_equal(pt_entry(&a, w.entry_addr),
			 t_table(NULL, w.entry_addr & ~0xfffULL));
	assert_int_equal(*pt_entry(&a, w.entry_addr), 0x1234000 | P | PTE_RW);
	assert_int_equal(pt_walk(&pt_mode_long4, root, 0x2fffff, &ar, &w), 0);
	assert_int_equal(w.pa, 0x8fffff);
	assert_int_equal(w.shift, PT_SHIFT_2M);
	assert_int_equal(pt_walk(&pt_mode_long4, root, 0x400000, &ar, &w),
			 -EFAULT);
}

/* paging_split_4k() on the host identity map: it walks to the leaf of
 * addr and splits it until addr has a 4 KiB one, every translation and
 * attribute kept. */
static void check_identity(const struct pt_reader *r, u64 root, u64 va,
			   unsigned shift)
{
	struct pt_walk w;

	assert_int_equal(pt_walk(&pt_mode_long4, root, va, r, &w), 0);
	assert_int_equal(w.pa, va);
	assert_int_equal(w.shift, shift);
	/* RW, A, D as the map was built; PS only on large leaves. */
	assert_int_equal(w.entry & 0xfff & ~PTE_PS,
			 PTE_P | PTE_RW | PTE_A | PTE_D);
	assert_int_equal(!!(w.entry & PTE_PS), shift > PT_SHIFT_4K);
}

static void test_split_4k(void **s)
{
	const struct pt_alloc a = { t_alloc, t_table, NULL };
	const struct pt_reader ar = { pt_alloc_read, &a };
	u64 g5 = 5 * SZ_1G;
	hpa_t root;

	(void)s;
	used = 0;
	limit = POOL_PAGES;
	/* 2 MiB pages below 4 GiB, 1 GiB pages above: PML4, PDPT, 4 PDs. */
	root = paging_build_identity(6 * SZ_1G, true, &a);
	assert_int_equal(root.v, BASE);
	assert_int_equal(used, 6);
	check_identity(&ar, root.v, g5 + 0x3456, PT_SHIFT_1G);
	/* 1 GiB -> 2 MiB -> 4 KiB: two tables. */
	assert_int_equal(paging_split_4k(root, g5 + 0x3456, &a), 2);
	assert_int_equal(used, 8);
	check_identity(&ar, root.v, g5 + 0x3456, PT_SHIFT_4K);
	check_identity(&ar, root.v, g5, PT_SHIFT_4K);
	check_identity(&ar, root.v, g5 + SZ_2M - 1, PT_SHIFT_4K);
	check_identity(&ar, root.v, g5 + SZ_2M, PT_SHIFT_2M);
	check_identity(&ar, root.v, g5 + SZ_1G - 1, PT_SHIFT_2M);
	check_identity(&ar, root.v, 4 * SZ_1G, PT_SHIFT_1G);
	/* Already 4 KiB: nothing to do. */
	assert_int_equal(paging_split_4k(root, g5 + 0x1fffff, &a), 0);
	/* A 2 MiB page below 4 GiB: one table. */
	assert_int_equal(paging_split_4k(root, 0x40201000, &a), 1);
	check_identity(&ar, root.v, 0x40201000, PT_SHIFT_4K);
	check_identity(&ar, root.v, 0x40200000 - 1, PT_SHIFT_2M);
	/* Not mapped (above the top): nothing. */
	assert_int_equal(paging_split_4k(root, 6 * SZ_1G, &a), 0);
	assert_int_equal(used, 9);
	/* Out of pages on the second split: -ENOMEM, the first one stays. */
	limit = 10;
	assert_int_equal(paging_split_4k(root, 4 * SZ_1G, &a), -ENOMEM);
	check_identity(&ar, root.v, 4 * SZ_1G, PT_SHIFT_2M);
}

#define CASE(i)                                                        \
	(struct CMUnitTest)                                            \
	{                                                              \
		cases[i].name, run_case, NULL, NULL, (void *)&cases[i] \
	}

int main(void)
{
	struct CMUnitTest tests[ARRAY_SIZE(cases) + 3] = {
		cmocka_unit_test(test_entry_reported),
		cmocka_unit_test(test_alloc_reader),
		cmocka_unit_test(test_split_4k),
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		tests[3 + i] = CASE(i);
	return cmocka_run_group_tests_name("ptwalk", tests, NULL, NULL);
}
