// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_apic_cal.c - the watchdog tick comes from a measured
 * LAPIC timer rate, not an assumed 1 GHz: rate from counts, ms -> count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/smp/apic_cal.h"

static void test_rate(void **s)
{
	(void)s;
	/* QEMU: 1 GHz APIC timer, 2.5 GHz TSC, 1 ms measured. */
	assert_int_equal(apic_khz_from(1000000, 2500000, 2500000), 1000000);
	/* EPYC: 100 MHz APIC timer (bus clock), 3.7 GHz TSC, 10 ms. */
	assert_int_equal(apic_khz_from(1000000, 37000000, 3700000), 100000);
	/* 25 MHz crystal, 2 GHz TSC, 1/2 ms. */
	assert_int_equal(apic_khz_from(12500, 1000000, 2000000), 25000);
	/* The largest count with a 10 GHz TSC does not overflow. */
	assert_int_equal(apic_khz_from(0xffffffffULL, 10000000ULL * 4294,
				       10000000),
			 0xffffffffULL * 10000000 / (10000000ULL * 4294));
	assert_int_equal(apic_khz_from(1ULL << 33, 1000, 1000), 0);
	assert_int_equal(apic_khz_from(100, 0, 1000), 0);
	assert_int_equal(apic_khz_from(100, 1000, 0), 0);
}

static void test_ticks_for_ms(void **s)
{
	(void)s;
	assert_int_equal(apic_ticks_for_ms(1000000, 10), 10000000); /* QEMU */
	assert_int_equal(apic_ticks_for_ms(100000, 10), 1000000); /* 100 MHz */
	assert_int_equal(apic_ticks_for_ms(25000, 10), 250000);
	assert_int_equal(apic_ticks_for_ms(5000000, 1000), 0xffffffffu);
	assert_int_equal(apic_ticks_for_ms(0, 10), 0);
	assert_int_equal(apic_ticks_for_ms(1, 0), 1);
}

/* The re-look after a tick the host may have missed: a hundredth of the
 * tick, with a floor. A loaded host once calibrated QEMU's 1 GHz timer as
 * 5.9 MHz: a 59,490-count tick, whose hundredth (594 counts, 0.6 us of
 * QEMU's real clock) re-armed faster than the host took the interrupts
 * and hung the run (05-svm.t's endless-loop guest, never stopped). */
static void test_recheck_floor(void **s)
{
	(void)s;
	assert_int_equal(apic_recheck_count(10000000), 100000); /* 1 GHz */
	assert_int_equal(apic_recheck_count(250000), APIC_RECHECK_MIN);
	assert_int_equal(apic_recheck_count(59490), APIC_RECHECK_MIN);
	assert_int_equal(apic_recheck_count(1), APIC_RECHECK_MIN);
	assert_int_equal(apic_recheck_count(0), APIC_RECHECK_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_ticks_for_ms),
		cmocka_unit_test(test_recheck_floor),
	};
	return cmocka_run_group_tests_name("apic_cal", tests, NULL, NULL);
}
