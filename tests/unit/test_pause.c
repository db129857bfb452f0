// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_pause.c - the PAUSE filter policy for every CPUID and
 * option combination, with and without vCPUs sharing CPUs (APM vol 2,
 * 15.14.4; Xen's 4000/1000 seed), and the dynamic window (KVM's
 * grow_ple_window()/shrink_ple_window()). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "include/minhv/guest_layout.h"
#include "hv/vmcb/pause.h"

static const struct pause_opts autoo = { -1, -1, PAUSE_REQ_AUTO };

static bool shared = true; /* most cases: vCPUs share CPUs */

static struct pause_policy decide(bool filter, bool thresh, struct pause_opts o)
{
	struct features f = { 0 };
	struct pause_policy p;

	memset(&p, 0x5a, sizeof(p));
	f.svm = f.npt = true;
	f.pause_filter = filter;
	f.pause_filter_threshold = thresh;
	pause_policy_decide(&f, &o, shared, &p);
	return p;
}

/* No filter (QEMU TCG): one vCPU per CPU, not intercepted; vCPUs
 * sharing CPUs, intercepted and every PAUSE exits, said so. */
static void test_none(void **s)
{
	struct pause_policy p;

	(void)s;
	shared = false;
	p = decide(false, false, autoo);
	assert_false(p.intercept);
	assert_false(p.follow);
	assert_int_equal(p.mode, HV_PAUSE_NONE);
	assert_int_equal(p.count, 0);
	assert_int_equal(p.threshold, 0);
	assert_non_null(strstr(p.why, "EDX[10]=0"));
	assert_non_null(strstr(p.why, "PAUSE not intercepted"));
	/* Numbers alone do not turn the intercept on. */
	p = decide(false, false, (struct pause_opts){ 10, 10, PAUSE_REQ_AUTO });
	assert_false(p.intercept);
	shared = true;
	p = decide(false, false, autoo);
	assert_true(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_EVERY);
	assert_int_equal(p.count, 0);
	assert_non_null(strstr(p.why, "EDX[10]=0"));
	assert_non_null(strstr(p.why, "every PAUSE exits"));
	assert_non_null(strstr(p.why, "vCPUs share CPUs"));
	/* auto: only while another vCPU waits (hv/svm/sched_cpu.c). */
	assert_true(p.follow);
	assert_non_null(strstr(p.why, "while another vCPU waits"));
	p = decide(false, false, (struct pause_opts){ -1, -1, PAUSE_REQ_ON });
	assert_true(p.intercept);
	assert_false(p.follow); /* on: always */
	assert_null(strstr(p.why, "while another vCPU waits"));
}

/* With the filter and one vCPU per CPU: not intercepted, but the filter
 * values are decided and stay (in the VMCB, for pause_intercept=on). */
static void test_one_per_cpu(void **s)
{
	struct pause_policy p;

	(void)s;
	shared = false;
	p = decide(true, true, autoo);
	assert_false(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_NONE);
	assert_int_equal(p.count, 4000);
	assert_int_equal(p.threshold, 1000);
	assert_non_null(strstr(p.why, "one vCPU per CPU"));
	assert_non_null(strstr(p.why, "count 4000 (default)"));
	/* on: intercepted with them all the same. */
	p = decide(true, true, (struct pause_opts){ -1, -1, PAUSE_REQ_ON });
	assert_true(p.intercept);
	assert_false(p.follow);
	assert_int_equal(p.mode, HV_PAUSE_FILTER);
	assert_int_equal(p.count, 4000);
	shared = true;
	p = decide(true, true, autoo);
	assert_true(p.intercept);
	assert_true(p.follow);
	p = decide(true, true, (struct pause_opts){ -1, -1, PAUSE_REQ_OFF });
	assert_false(p.intercept);
	assert_false(p.follow);
}

/* KVM's window: doubled per exit up to 65535, back to the base when the
 * vCPU is scheduled in; a base of 0 (every PAUSE exits) stays 0. */
static void test_window(void **s)
{
	(void)s;
	assert_int_equal(pause_window_grow(4000, 4000), 8000);
	assert_int_equal(pause_window_grow(8000, 4000), 16000);
	assert_int_equal(pause_window_grow(40000, 4000), 0xffff);
	assert_int_equal(pause_window_grow(0xffff, 4000), 0xffff);
	assert_int_equal(pause_window_grow(0, 0), 0);
	/* A base at or below the factor adds instead (KVM's rule). */
	assert_int_equal(pause_window_grow(2, 2), 4);
	assert_int_equal(pause_window_grow(4, 1), 6);
	assert_int_equal(pause_window_shrink(0xffff, 4000), 4000);
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
	/* Off wins over the feature (the values stay for the VMCB). */
	p = decide(true, true, (struct pause_opts){ -1, -1, PAUSE_REQ_OFF });
	assert_false(p.intercept);
	assert_int_equal(p.mode, HV_PAUSE_NONE);
	assert_int_equal(p.count, 4000);
	assert_non_null(strstr(p.why, "pause_intercept=off"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_one_per_cpu),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_filter_only),
		cmocka_unit_test(test_filter_and_threshold),
		cmocka_unit_test(test_option_override),
		cmocka_unit_test(test_forced),
	};
	return cmocka_run_group_tests_name("pause", tests, NULL, NULL);
}
