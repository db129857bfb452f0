// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_smp_policy.c - boot-time SMP decisions (hv/smp/policy.c):
 * the IPI fence per vendor and option, the INIT delay, defaults. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/smp/policy.h"

static void test_fence_auto_by_vendor(void **s)
{
	(void)s;
	assert_false(smp_ipi_fence_decide(VENDOR_AMD, IPI_FENCE_AUTO).fence);
	assert_false(smp_ipi_fence_decide(VENDOR_HYGON, IPI_FENCE_AUTO).fence);
	assert_true(smp_ipi_fence_decide(VENDOR_INTEL, IPI_FENCE_AUTO).fence);
	assert_true(smp_ipi_fence_decide(VENDOR_OTHER, IPI_FENCE_AUTO).fence);
	assert_non_null(
		strstr(smp_ipi_fence_decide(VENDOR_INTEL, IPI_FENCE_AUTO).why,
		       "Intel"));
	assert_non_null(
		strstr(smp_ipi_fence_decide(VENDOR_HYGON, IPI_FENCE_AUTO).why,
		       "AMD/Hygon"));
}

static void test_fence_options_override(void **s)
{
	(void)s;
	assert_true(smp_ipi_fence_decide(VENDOR_AMD, IPI_FENCE_ON).fence);
	assert_true(smp_ipi_fence_decide(VENDOR_HYGON, IPI_FENCE_ON).fence);
	assert_false(smp_ipi_fence_decide(VENDOR_INTEL, IPI_FENCE_OFF).fence);
	assert_non_null(
		strstr(smp_ipi_fence_decide(VENDOR_INTEL, IPI_FENCE_OFF).why,
		       "ipi_fence=off"));
}

static void test_init_delay(void **s)
{
	(void)s;
	assert_int_equal(smp_init_delay_us(VENDOR_AMD, 0x19, INIT_DELAY_AUTO),
			 0);
	assert_int_equal(smp_init_delay_us(VENDOR_AMD, 0xf, INIT_DELAY_AUTO),
			 0);
	assert_int_equal(smp_init_delay_us(VENDOR_AMD, 0xe, INIT_DELAY_AUTO),
			 10000);
	assert_int_equal(smp_init_delay_us(VENDOR_HYGON, 0x18, INIT_DELAY_AUTO),
			 0);
	assert_int_equal(smp_init_delay_us(VENDOR_HYGON, 0x17, INIT_DELAY_AUTO),
			 10000);
	assert_int_equal(smp_init_delay_us(VENDOR_INTEL, 6, INIT_DELAY_AUTO),
			 0);
	assert_int_equal(smp_init_delay_us(VENDOR_INTEL, 0xf, INIT_DELAY_AUTO),
			 10000);
	assert_int_equal(smp_init_delay_us(VENDOR_OTHER, 0x19, INIT_DELAY_AUTO),
			 10000);
	/* the option wins, both ways */
	assert_int_equal(smp_init_delay_us(VENDOR_AMD, 0x19, 10000), 10000);
	assert_int_equal(smp_init_delay_us(VENDOR_OTHER, 5, 0), 0);
}

static void test_defaults(void **s)
{
	struct smp_opts o;

	(void)s;
	memset(&o, 0x5a, sizeof(o));
	smp_opts_default(&o);
	assert_int_equal(o.fence, IPI_FENCE_AUTO);
	assert_int_equal(o.mode, SMP_PARALLEL);
	assert_int_equal(o.init_delay_us, INIT_DELAY_AUTO);
	assert_true(o.sipi_max >= 2); /* the MP spec's two SIPIs at least */
	assert_true(o.timeout_ms > 0);
	assert_int_equal(o.maxcpus, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fence_auto_by_vendor),
		cmocka_unit_test(test_fence_options_override),
		cmocka_unit_test(test_init_delay),
		cmocka_unit_test(test_defaults),
	};

	return cmocka_run_group_tests_name("smp_policy", tests, NULL, NULL);
}
