// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_walk.c - the guest page-table walker and instruction
 * fetch (hv/emul/walk.c) over page tables built in a fake guest RAM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cr.h"
#include "arch/msr.h"
#include "arch/pte.h"
#include "hv/emul/walk.h"
#include "arch/errno.h"

#define MEM (8ULL << 20)
#define P PTE_P
#define RW PTE_RW
#define PS PTE_PS

static u8 *ram;
static struct gmem m;

static int setup(void **s)
{
	(void)s;
	ram = calloc(1, MEM);
	assert_non_null(ram);
	m = (struct gmem){ ram, MEM };
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(ram);
	return 0;
}

static void put32(u64 a, u32 v)
{
	memcpy(ram + a, &v, 4);
}

static void put64(u64 a, u64 v)
{
	memcpy(ram + a, &v, 8);
}

static u64 xlate(const struct gpaging *p, u64 la)
{
	gpa_t g;

	assert_int_equal(gwalk(&m, p, la, &g), 0);
	return g.v;
}

static int xlate_err(const struct gpaging *p, u64 la)
{
	gpa_t g = gpa(0xdead);
	int r = gwalk(&m, p, la, &g);

	assert_int_not_equal(r, 0);
	return r;
}

static void test_paging_off(void **s)
{
	struct gpaging p = { .cr0 = CR0_PE };

	(void)s;
	assert_int_equal(xlate(&p, 0x12345678), 0x12345678);
	assert_int_equal(xlate(&p, 0x100001000ULL), 0x1000); /* 32 bits */
}

static void test_32bit(void **s)
{
	struct gpaging p = { .cr0 = CR0_PE | CR0_PG, .cr3 = 0x1000 };

	(void)s;
	put32(0x1000 + 1 * 4, 0x2000 | P | RW); /* PDE 1 -> PT */
	put32(0x2000 + 5 * 4, 0x345000 | P); /* PTE 5 */
	assert_int_equal(xlate(&p, 0x405123), 0x345123);
	/* PDE 2: a 4 MiB page, only with CR4.PSE */
	put32(0x1000 + 2 * 4, 0x400000 | P | PS | (0x3ULL << 13));
	p.cr4 = CR4_PSE;
	/* PSE-36: bits 20:13 are PA[39:32] */
	assert_int_equal(xlate(&p, 0x812345), 0x300412345ULL);
	/* without PSE the PS bit is ignored: a PT at 0x406000 (bits 13-14) */
	p.cr4 = 0;
	put32(0x406000 + 0x12 * 4, 0x7000 | P);
	assert_int_equal(xlate(&p, 0x812345), 0x7345);
	/* not present */
	assert_int_equal(xlate_err(&p, 0xc00000), -EFAULT);
	put32(0x2000 + 6 * 4, 0x346000);
	assert_int_equal(xlate_err(&p, 0x406000), -EFAULT);
}

static void test_pae(void **s)
{
	struct gpaging p = { .cr0 = CR0_PE | CR0_PG,
			     .cr3 = 0x3020, /* 32-byte aligned PDPT */
			     .cr4 = CR4_PAE };

	(void)s;
	put64(0x3020 + 0 * 8, 0x4000 | P);
	put64(0x4000 + 1 * 8, 0x600000 | P | RW | PS); /* 2 MiB */
	assert_int_equal(xlate(&p, 0x2abcde), 0x6abcde);
	put64(0x4000 + 2 * 8, 0x5000 | P);
	put64(0x5000 + 3 * 8, 0x123456789000ULL | P | BIT(63)); /* NX */
	assert_int_equal(xlate(&p, 0x403abc), 0x123456789abcULL);
	/* PDPTE 3 (va 0xc0000000+) not present */
	assert_int_equal(xlate_err(&p, 0xc0000000), -EFAULT);
	/* PS in a PDPTE is reserved under PAE */
	put64(0x3020 + 1 * 8, 0x40000000 | P | PS);
	assert_int_equal(xlate_err(&p, 0x40000000), -EFAULT);
}

static void test_long_mode(void **s)
{
	struct gpaging p = { .cr0 = CR0_PE | CR0_PG,
			     .cr3 = 0x5000,
			     .cr4 = CR4_PAE,
			     .efer = EFER_LME | EFER_LMA };
	u64 va = 0xffff800000201234ULL; /* PML4 256, PDPT 0, PD 1, PT 1 */

	(void)s;
	put64(0x5000 + 256 * 8, 0x6000 | P | RW);
	put64(0x6000 + 0 * 8, 0x7000 | P | RW);
	put64(0x7000 + 1 * 8, 0x8000 | P | RW);
	put64(0x8000 + 1 * 8, 0x9000 | P | RW);
	assert_int_equal(xlate(&p, va), 0x9234);
	/* 1 GiB page at PDPT 1 */
	put64(0x6000 + 1 * 8, 0x80000000ULL | P | PS);
	assert_int_equal(xlate(&p, 0xffff800040012345ULL), 0x80012345ULL);
	/* 2 MiB page at PD 2 */
	put64(0x7000 + 2 * 8, 0x200000 | P | PS);
	assert_int_equal(xlate(&p, 0xffff800000412345ULL), 0x212345);
	/* PS in a PML4E is reserved */
	put64(0x5000 + 1 * 8, 0x6000 | P | PS);
	assert_int_equal(xlate_err(&p, 1ULL << 39), -EFAULT);
	/* not present at PML4 */
	assert_int_equal(xlate_err(&p, 0), -EFAULT);
}

/* A table pointer outside guest RAM is refused, never dereferenced (ASan
 * would flag the read past the buffer). */
static void test_table_outside_ram(void **s)
{
	struct gpaging lm = { .cr0 = CR0_PE | CR0_PG,
			      .cr3 = 0x5000,
			      .cr4 = CR4_PAE,
			      .efer = EFER_LMA };
	struct gpaging p32 = { .cr0 = CR0_PE | CR0_PG, .cr3 = MEM + 0x1000 };

	(void)s;
	put64(0x5000, 0x6000 | P);
	put64(0x6000, (MEM + 0x100000) | P); /* PD beyond RAM */
	assert_int_equal(xlate_err(&lm, 0x1000), -ERANGE);
	put64(0x6000, 0xfffffffff000ULL | P);
	assert_int_equal(xlate_err(&lm, 0x1000), -ERANGE);
	/* CR3 itself outside RAM */
	assert_int_equal(xlate_err(&p32, 0x1000), -ERANGE);
	/* the last entry straddling the end of RAM */
	p32.cr3 = MEM - 0x1000;
	assert_int_equal(xlate_err(&p32, 0xffc00000), -EFAULT);
	m.size = MEM - 2; /* entry 1023 now ends 2 bytes past RAM */
	assert_int_equal(xlate_err(&p32, 0xffc00000), -ERANGE);
	m.size = MEM;
}

static void test_fetch_straddle(void **s)
{
	struct gpaging p = { .cr0 = CR0_PE | CR0_PG, .cr3 = 0x1000 };
	u8 buf[15], want[15];
	int n;

	(void)s;
	/* va 0x400000 -> 0x20000, va 0x401000 -> 0x50000: not contiguous */
	put32(0x1000 + 1 * 4, 0x2000 | P);
	put32(0x2000 + 0 * 4, 0x20000 | P);
	put32(0x2000 + 1 * 4, 0x50000 | P);
	for (int i = 0; i < 15; i++)
		want[i] = 0xa0 + i;
	memcpy(ram + 0x20ffa, want, 6);
	memcpy(ram + 0x50000, want + 6, 9);
	memset(buf, 0, sizeof(buf));
	n = gfetch(&m, &p, 0x400ffa, buf, 15);
	assert_int_equal(n, 15);
	assert_memory_equal(buf, want, 15);
	/* second page not present: only the first page's bytes */
	put32(0x2000 + 1 * 4, 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(gfetch(&m, &p, 0x400ffa, buf, 15), 6);
	assert_memory_equal(buf, want, 6);
	/* second page maps outside RAM (e.g. MMIO): also a short fetch */
	put32(0x2000 + 1 * 4, 0xfee00000 | P);
	assert_int_equal(gfetch(&m, &p, 0x400ffa, buf, 15), 6);
	/* first page unmapped: the walk's error */
	assert_int_equal(gfetch(&m, &p, 0x402000, buf, 15), -EFAULT);
	/* first page outside RAM */
	assert_int_equal(gfetch(&m, &p, 0x401000, buf, 15), -ERANGE);
	/* within one page */
	assert_int_equal(gfetch(&m, &p, 0x400100, buf, 15), 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_paging_off, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_32bit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pae, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_mode, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_table_outside_ram, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fetch_straddle, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("walk", tests, NULL, NULL);
}
