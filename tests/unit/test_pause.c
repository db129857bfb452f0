// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_pause.c - the PAUSE filter policy for every CPUID and
 * option combination (APM vol 2, 15.14.4; Xen's 4000/1000 seed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "include/minhv/guest_layout.h"
#include "hv/vmcb/pause.h"

static const struct pause_opts autoo = { -1, -1, PAUSE_REQ_AUTO };

static struct pause_policy decide(bool filter, bool thresh, struct pause_opts o)
{
	struct features f = { 0 };
	struct pause_policy p;

	memset(&p, 0x5a, sizeof(p));
	f.svm = f.npt = true;
	f.pause_filter = filter;
	f.pause_filter_threshold = thresh;
	pause_policy_decide(&f, &o, &p);
	return p;
}

static void test_none(void **s)
{
	struct pause_policy p = decide(false, false, autoo);

	(void)s;
	assert_false(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_NONE);
	assert_int_equal(p.count, 0);
	assert_int_equal(p.threshold, 0);
	assert_non_null(strstr(p.why, "EDX[10]=0"));
	/* Numbers alone do not turn the intercept on. */
	p = decide(false, false, (struct pause_opts){ 10, 10, PAUSE_REQ_AUTO });
	assert_false(p.intercept);
}

static void test_filter_only(void **s)
{
	struct pause_policy p = decide(true, false, autoo);

	(void)s;
	assert_true(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_FILTER);
	assert_int_equal(p.count, 4000);
	assert_int_equal(p.threshold, 0);
	assert_non_null(strstr(p.why, "no PauseFilterThreshold"));
}

static void test_filter_and_threshold(void **s)
{
	struct pause_policy p = decide(true, true, autoo);

	(void)s;
	assert_true(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_FILTER);
	assert_int_equal(p.count, 4000);
	assert_int_equal(p.threshold, 1000);
	assert_non_null(strstr(p.why, "count 4000 (default)"));
}

static void test_option_override(void **s)
{
	struct pause_policy p = decide(
		true, true, (struct pause_opts){ 3000, 128, PAUSE_REQ_AUTO });

	(void)s;
	assert_int_equal(p.count, 3000);
	assert_int_equal(p.threshold, 128);
	assert_non_null(strstr(p.why, "(option)"));
	/* Threshold option without the threshold feature is ignored. */
	p = decide(true, false, (struct pause_opts){ -1, 128, PAUSE_REQ_AUTO });
	assert_int_equal(p.count, 4000);
	assert_int_equal(p.threshold, 0);
	/* Out-of-range values clamp to the 16-bit fields. */
	p = decide(true, true,
		   (struct pause_opts){ 70000, 99999, PAUSE_REQ_AUTO });
	assert_int_equal(p.count, 0xffff);
	assert_int_equal(p.threshold, 0xffff);
	/* Count 0 = every PAUSE exits. */
	p = decide(true, true, (struct pause_opts){ 0, -1, PAUSE_REQ_AUTO });
	assert_true(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_EVERY);
}

static void test_forced(void **s)
{
	struct pause_policy p = decide(
		false, false, (struct pause_opts){ -1, -1, PAUSE_REQ_ON });

	(void)s;
	assert_true(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_EVERY);
	assert_int_equal(p.count, 0);
	assert_non_null(strstr(p.why, "every PAUSE exits"));
	/* Forced on with the feature: the filter is still used. */
	p = decide(true, true, (struct pause_opts){ -1, -1, PAUSE_REQ_ON });
	assert_int_equal(p.mode, HV_PAUSE_FILTER);
	assert_int_equal(p.count, 4000);
	/* Off wins over the feature. */
	p = decide(true, true, (struct pause_opts){ -1, -1, PAUSE_REQ_OFF });
	assert_false(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_NONE);
	assert_int_equal(p.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_filter_only),
		cmocka_unit_test(test_filter_and_threshold),
		cmocka_unit_test(test_option_override),
		cmocka_unit_test(test_forced),
	};
	return cmocka_run_group_tests_name("pause", tests, NULL, NULL);
}
