/* tests/unit/test_smp_policy.c - boot-time SMP decisions (hv/smp_policy.c):
 * the IPI fence per vendor and option, the INIT delay, option parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/smp_policy.h"

static void test_fence_auto_by_vendor(void **s)
{
	(void)s;
	assert_false(ipi_fence_decide(VENDOR_AMD, IPI_FENCE_AUTO).fence);
	assert_false(ipi_fence_decide(VENDOR_HYGON, IPI_FENCE_AUTO).fence);
	assert_true(ipi_fence_decide(VENDOR_INTEL, IPI_FENCE_AUTO).fence);
	assert_true(ipi_fence_decide(VENDOR_OTHER, IPI_FENCE_AUTO).fence);
	assert_non_null(strstr(ipi_fence_decide(VENDOR_INTEL,
						 IPI_FENCE_AUTO).why,
			       "Intel"));
	assert_non_null(strstr(ipi_fence_decide(VENDOR_HYGON,
						 IPI_FENCE_AUTO).why,
			       "AMD/Hygon"));
}

static void test_fence_options_override(void **s)
{
	(void)s;
	assert_true(ipi_fence_decide(VENDOR_AMD, IPI_FENCE_ON).fence);
	assert_true(ipi_fence_decide(VENDOR_HYGON, IPI_FENCE_ON).fence);
	assert_false(ipi_fence_decide(VENDOR_INTEL, IPI_FENCE_OFF).fence);
	assert_non_null(strstr(ipi_fence_decide(VENDOR_INTEL,
						 IPI_FENCE_OFF).why,
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
	assert_int_equal(smp_init_delay_us(VENDOR_HYGON, 0x18,
					   INIT_DELAY_AUTO),
			 0);
	assert_int_equal(smp_init_delay_us(VENDOR_HYGON, 0x17,
					   INIT_DELAY_AUTO),
			 10000);
	assert_int_equal(smp_init_delay_us(VENDOR_INTEL, 6, INIT_DELAY_AUTO),
			 0);
	assert_int_equal(smp_init_delay_us(VENDOR_INTEL, 0xf,
					   INIT_DELAY_AUTO),
			 10000);
	assert_int_equal(smp_init_delay_us(VENDOR_OTHER, 0x19,
					   INIT_DELAY_AUTO),
			 10000);
	/* the option wins, both ways */
	assert_int_equal(smp_init_delay_us(VENDOR_AMD, 0x19, 10000), 10000);
	assert_int_equal(smp_init_delay_us(VENDOR_OTHER, 5, 0), 0);
}

static void test_options(void **s)
{
	struct smp_opts o;

	(void)s;
	smp_opts_default(&o);
	assert_int_equal(o.fence, IPI_FENCE_AUTO);
	assert_int_equal(o.mode, SMP_PARALLEL);
	assert_int_equal(o.init_delay_us, INIT_DELAY_AUTO);
	assert_false(o.bench);

	assert_int_equal(smp_opt_parse(&o, "ipi_fence", "on"), 0);
	assert_int_equal(o.fence, IPI_FENCE_ON);
	assert_int_equal(smp_opt_parse(&o, "ipi_fence", "off"), 0);
	assert_int_equal(o.fence, IPI_FENCE_OFF);
	assert_int_equal(smp_opt_parse(&o, "ipi_fence", "auto"), 0);
	assert_int_equal(o.fence, IPI_FENCE_AUTO);
	assert_int_equal(smp_opt_parse(&o, "ipi_fence", "maybe"), -22);
	assert_int_equal(smp_opt_parse(&o, "smp", "serial"), 0);
	assert_int_equal(o.mode, SMP_SERIAL);
	assert_int_equal(smp_opt_parse(&o, "smp", "parallel"), 0);
	assert_int_equal(o.mode, SMP_PARALLEL);
	assert_int_equal(smp_opt_parse(&o, "smp", ""), -22);
	assert_int_equal(smp_opt_parse(&o, "init_delay_us", "10000"), 0);
	assert_int_equal(o.init_delay_us, 10000);
	assert_int_equal(smp_opt_parse(&o, "init_delay_us", "auto"), 0);
	assert_int_equal(o.init_delay_us, INIT_DELAY_AUTO);
	assert_int_equal(smp_opt_parse(&o, "init_delay_us", "-1"), -22);
	assert_int_equal(smp_opt_parse(&o, "init_delay_us", "12x"), -22);
	assert_int_equal(smp_opt_parse(&o, "smp_timeout_ms", "250"), 0);
	assert_int_equal(o.timeout_ms, 250);
	assert_int_equal(smp_opt_parse(&o, "smp_timeout_ms", "0"), -22);
	assert_int_equal(smp_opt_parse(&o, "smp_sipi_max", "2"), 0);
	assert_int_equal(o.sipi_max, 2);
	assert_int_equal(smp_opt_parse(&o, "smp_sipi_max", "0"), -22);
	assert_int_equal(smp_opt_parse(&o, "bench", "1"), 0);
	assert_true(o.bench);
	assert_int_equal(smp_opt_parse(&o, "bench", "2"), -22);
	assert_int_equal(smp_opt_parse(&o, "smp_drop_sipi", "300"), 0);
	assert_int_equal(o.drop_sipi_apic, 300);
	assert_int_equal(smp_opt_parse(&o, "smp_drop_sipi", NULL), -22);
	assert_int_equal(smp_opt_parse(&o, "console", "com1"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fence_auto_by_vendor),
		cmocka_unit_test(test_fence_options_override),
		cmocka_unit_test(test_init_delay),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests_name("smp_policy", tests, NULL, NULL);
}
