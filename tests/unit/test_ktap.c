// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_ktap.c - KTAP output (hv/ktap.c): plan, numbering, SKIP
 * and failure lines, totals, name sanitising, storage beyond one page; the
 * storage policy (guests' share, the hypervisor's reserved room, lost
 * results fail the run) and guest results (hv/guest/report.c: forged
 * names, plans, per-guest share). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/guest/guest.h"
#include "hv/ktap.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/state_hooks.h"

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_console_clear();
	ktap_reset();
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	ktap_reset();
	return 0;
}

static void test_block(void **s)
{
	(void)s;
	assert_true(ktap_ok("a.one", true, "unused"));
	assert_false(ktap_ok("a.two", false, "got %d want %d", 3, 4));
	ktap_skip("a.three", "no %s here", "SVM");
	fake_console_clear();
	assert_int_equal(ktap_finish(), 1);
	assert_string_equal(fake_console_text(),
			    "KTAP version 1\n"
			    "1..3\n"
			    "ok 1 a.one\n"
			    "# a.two: got 3 want 4\n"
			    "not ok 2 a.two\n"
			    "ok 3 a.three # SKIP no SVM here\n"
			    "# Totals: pass:1 fail:1 skip:1\n");
}

static void test_names_sanitised(void **s)
{
	(void)s;
	ktap_ok("bad name#x", true, NULL);
	ktap_ok("multi", false, "line1\nline2");
	fake_console_clear();
	ktap_finish();
	assert_true(fake_console_has("ok 1 bad_name_x\n"));
	assert_true(fake_console_has("# multi: line1 line2\n"));
}

static void test_many_results(void **s)
{
	char name[32];

	(void)s;
	for (int i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		ktap_ok(name, i != 150, "number %d", i);
	}
	assert_int_equal(ktap_count(), 200);
	assert_int_equal(ktap_failures(), 1);
	fake_console_clear();
	ktap_finish();
	assert_true(fake_console_has("1..200\n"));
	assert_true(fake_console_has("ok 200 r199\n"));
	assert_true(fake_console_has("not ok 151 r150\n"));
	assert_true(fake_console_has("# Totals: pass:199 fail:1 skip:0\n"));
}

/* Guests fill their share; the hypervisor's next result still fits; the
 * dropped guest result makes the run fail. */
static void test_guest_share(void **s)
{
	char name[32];

	(void)s;
	for (int i = 0; i < KTAP_CAPACITY - KTAP_HV_RESERVE; i++) {
		snprintf(name, sizeof(name), "g%d", i);
		assert_true(ktap_guest_ok(name, true, NULL));
	}
	assert_false(ktap_guest_ok("g.more", true, NULL));
	assert_false(ktap_guest_skip("g.skip", "x"));
	assert_int_equal(ktap_lost(), 2);
	assert_true(ktap_ok("svm.guest_run", true, "hv"));
	assert_int_equal(ktap_count(), KTAP_CAPACITY - KTAP_HV_RESERVE + 1);
	fake_console_clear();
	assert_int_equal(ktap_finish(), 1);
	assert_true(fake_console_has("1..450\n"));
	assert_true(fake_console_has("ok 449 svm.guest_run\n"));
	assert_true(fake_console_has("not ok 450 ktap.results_lost\n"));
	assert_true(fake_console_has("# Totals: pass:449 fail:1 skip:0\n"));
}

/* Even the hypervisor's own results can run out: never a pass then. */
static void test_hv_overflow(void **s)
{
	char name[32];

	(void)s;
	for (int i = 0; i < 600; i++) {
		snprintf(name, sizeof(name), "h%d", i);
		ktap_ok(name, true, NULL);
	}
	assert_int_equal(ktap_count(), KTAP_CAPACITY);
	assert_int_equal(ktap_lost(), 600 - KTAP_CAPACITY);
	fake_console_clear();
	assert_int_equal(ktap_finish(), 1);
	assert_true(fake_console_has("not ok 577 ktap.results_lost\n"));
	assert_true(fake_console_has("# Totals: pass:576 fail:1 skip:0\n"));
}

static struct guest *new_guest(u64 plan)
{
	static struct guest g;

	memset(&g, 0, sizeof(g));
	strcpy(g.name, "tg");
	g.plan = plan;
	return &g;
}

/* A guest result named like one of minhv's is renamed and fails. */
static void test_guest_forged_name(void **s)
{
	struct guest *g = new_guest(0);
	char why[128];

	(void)s;
	guest_report(g, "svm.pool_restored", HC_RESULT_OK, "");
	guest_report(g, "lifecycle", HC_RESULT_SKIP, "x");
	guest_report(g, "smp", HC_RESULT_OK, "");
	guest_report(g, "smpx.y", HC_RESULT_OK, "");
	fake_console_clear();
	assert_int_equal(ktap_finish(), 2);
	assert_true(fake_console_has("not ok 1 guest.svm.pool_restored\n"));
	assert_true(fake_console_has("not ok 2 guest.lifecycle\n"));
	assert_true(fake_console_has("ok 3 smp\n"));
	assert_true(fake_console_has("ok 4 smpx.y\n"));
	assert_false(fake_console_has("ok 1 svm."));
	assert_int_equal(g->report_fails, 2);
	assert_true(guest_results_ok(g, why, sizeof(why)));
}

/* HC_TEST_PLAN(2) is stored as 3: a third result is dropped, and fewer
 * than two at the end is incomplete. */
static void test_guest_plan(void **s)
{
	struct guest *g = new_guest(3);
	char why[128];

	(void)s;
	guest_report(g, "a", HC_RESULT_OK, "");
	assert_false(guest_results_ok(g, why, sizeof(why)));
	assert_string_equal(why, "1 results of 2 planned");
	guest_report(g, "b", HC_RESULT_OK, "");
	assert_true(guest_results_ok(g, why, sizeof(why)));
	guest_report(g, "c", HC_RESULT_OK, "");
	assert_int_equal(g->beyond_plan, 1);
	assert_false(guest_results_ok(g, why, sizeof(why)));
	assert_int_equal(ktap_count(), 2);
	fake_console_clear();
	ktap_finish();
	assert_false(fake_console_has(" c\n"));
}

/* Without a plan, a guest gets GUEST_MAX_REPORTS results at most. */
static void test_guest_own_share(void **s)
{
	struct guest *g = new_guest(0);
	char why[128];

	(void)s;
	for (int i = 0; i <= GUEST_MAX_REPORTS; i++)
		guest_report(g, "r", HC_RESULT_OK, "");
	assert_int_equal(ktap_count(), GUEST_MAX_REPORTS);
	assert_int_equal(g->over_share, 1);
	assert_false(guest_results_ok(g, why, sizeof(why)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_sanitised, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_many_results, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guest_share, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hv_overflow, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guest_forged_name, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guest_plan, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guest_own_share, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("ktap", tests, NULL, NULL);
}
