// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_apic_icr.c - ICR encoding (arch/apic_icr.c) for x2APIC and
 * xAPIC: delivery modes, shorthands, 32-bit vs 8-bit destinations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch/apic_icr.h"
#include "arch/errno.h"

static u64 x2(struct apic_icr r)
{
	u64 v = 0xdeadULL;

	assert_int_equal(apic_icr_encode_x2apic(&r, &v), 0);
	return v;
}

static void test_x2apic_delivery_modes(void **s)
{
	(void)s;
	/* fixed: vector | assert, destination in 63:32 */
	assert_int_equal(x2(apic_icr_fixed(3, 0xf1)), 0x00000003000040f1ULL);
	/* NMI: mode 4, vector field 0 */
	assert_int_equal(x2(apic_icr_nmi(0x12345678)), 0x1234567800004400ULL);
	/* INIT: mode 5, assert, level triggered (0xc500 as in Linux) */
	assert_int_equal(x2(apic_icr_init(7)), 0x000000070000c500ULL);
	/* SIPI: mode 6, vector = start page */
	assert_int_equal(x2(apic_icr_sipi(9, 0x9a)), 0x000000090000469aULL);
}

static void test_x2apic_32bit_destinations(void **s)
{
	(void)s;
	assert_int_equal(x2(apic_icr_fixed(256, 0x40)), 0x0000010000004040ULL);
	assert_int_equal(x2(apic_icr_fixed(0xfffffffe, 0x40)),
			 0xfffffffe00004040ULL);
	assert_int_equal(x2(apic_icr_fixed(X2APIC_BROADCAST, 0x40)),
			 0xffffffff00004040ULL);
	assert_int_equal(x2(apic_icr_sipi(287, 0x08)), 0x0000011f00004608ULL);
}

static void test_x2apic_shorthands(void **s)
{
	(void)s;
	assert_int_equal(
		x2(apic_icr_shorthand(APIC_SH_SELF, APIC_DM_FIXED, 0xf3)),
		0x440f3ULL);
	assert_int_equal(
		x2(apic_icr_shorthand(APIC_SH_ALL, APIC_DM_FIXED, 0xf3)),
		0x840f3ULL);
	assert_int_equal(
		x2(apic_icr_shorthand(APIC_SH_OTHERS, APIC_DM_FIXED, 0xf3)),
		0xc40f3ULL);
	assert_int_equal(x2(apic_icr_shorthand(APIC_SH_OTHERS, APIC_DM_NMI, 0)),
			 0xc4400ULL);
	assert_int_equal(
		x2(apic_icr_shorthand(APIC_SH_OTHERS, APIC_DM_INIT, 0)),
		0xc4500ULL);
	/* a shorthand ignores the destination */
	struct apic_icr r =
		apic_icr_shorthand(APIC_SH_OTHERS, APIC_DM_FIXED, 0xf3);
	r.dest = 0x55;
	assert_int_equal(x2(r), 0xc40f3ULL);
}

static void test_x2apic_logical_and_errors(void **s)
{
	struct apic_icr r = apic_icr_fixed(0x10001, 0x30);
	u64 v;

	(void)s;
	r.logical = true;
	assert_int_equal(x2(r), 0x0001000100004830ULL);

	r = apic_icr_fixed(1, 15); /* vectors 0..15 are illegal */
	assert_int_equal(apic_icr_encode_x2apic(&r, &v), -EINVAL);
	r = apic_icr_fixed(1, 16);
	assert_int_equal(apic_icr_encode_x2apic(&r, &v), 0);
	r.dm = 7;
	assert_int_equal(apic_icr_encode_x2apic(&r, &v), -EINVAL);
	r = apic_icr_fixed(1, 0x40);
	r.sh = 4;
	assert_int_equal(apic_icr_encode_x2apic(&r, &v), -EINVAL);
	r = apic_icr_init(1);
	r.deassert = true; /* no INIT de-assert in x2APIC */
	assert_int_equal(apic_icr_encode_x2apic(&r, &v), -EINVAL);
}

static void test_xapic_encoding(void **s)
{
	struct apic_icr r;
	u32 lo = 0, hi = 0;

	(void)s;
	r = apic_icr_fixed(0x12, 0xf1);
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), 0);
	assert_int_equal(lo, 0x40f1);
	assert_int_equal(hi, 0x12000000);

	r = apic_icr_init(0xff);
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), 0);
	assert_int_equal(lo, 0xc500);
	assert_int_equal(hi, 0xff000000);

	r = apic_icr_sipi(1, 0x08);
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), 0);
	assert_int_equal(lo, 0x4608);
	assert_int_equal(hi, 0x01000000);

	r = apic_icr_nmi(2);
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), 0);
	assert_int_equal(lo, 0x4400);

	/* legacy INIT de-assert exists only in xAPIC */
	r = apic_icr_init(2);
	r.deassert = true;
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), 0);
	assert_int_equal(lo, 0x8500);

	r = apic_icr_shorthand(APIC_SH_OTHERS, APIC_DM_FIXED, 0xf2);
	r.dest = 0x1234; /* ignored with a shorthand: no range error */
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), 0);
	assert_int_equal(lo, 0xc40f2);
	assert_int_equal(hi, 0);
}

static void test_xapic_refuses_ids_above_255(void **s)
{
	struct apic_icr r;
	u32 lo = 0x1111, hi = 0x2222;

	(void)s;
	r = apic_icr_fixed(256, 0xf1);
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), -ERANGE);
	r = apic_icr_sipi(0x1000, 0x08);
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), -ERANGE);
	/* nothing written on error */
	assert_int_equal(lo, 0x1111);
	assert_int_equal(hi, 0x2222);
	r = apic_icr_fixed(255, 0xf1);
	assert_int_equal(apic_icr_encode_xapic(&r, &lo, &hi), 0);
	assert_int_equal(hi, 0xff000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x2apic_delivery_modes),
		cmocka_unit_test(test_x2apic_32bit_destinations),
		cmocka_unit_test(test_x2apic_shorthands),
		cmocka_unit_test(test_x2apic_logical_and_errors),
		cmocka_unit_test(test_xapic_encoding),
		cmocka_unit_test(test_xapic_refuses_ids_above_255),
	};

	return cmocka_run_group_tests_name("apic_icr", tests, NULL, NULL);
}
