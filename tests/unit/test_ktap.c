/* tests/unit/test_ktap.c - KTAP output (hv/ktap.c): plan, numbering, SKIP
 * and failure lines, totals, name sanitising, the fixed result storage and
 * what happens when it is full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/ktap.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"

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

/* The storage holds KTAP_MAX_RESULTS; one more is reported lost, not
 * counted, and the block printed stays consistent. */
static void test_storage_full(void **s)
{
	char name[32];

	(void)s;
	for (int i = 0; i < KTAP_MAX_RESULTS; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		ktap_ok(name, true, NULL);
	}
	assert_int_equal(ktap_count(), KTAP_MAX_RESULTS);
	fake_console_clear();
	ktap_ok("one.too.many", false, "lost");
	assert_int_equal(ktap_count(), KTAP_MAX_RESULTS);
	assert_int_equal(ktap_failures(), 0);
	assert_true(
		fake_console_has("out of result storage, 'one.too.many' lost"));
	fake_console_clear();
	assert_int_equal(ktap_finish(), 0);
	assert_true(fake_console_has("ok 576 r575\n"));
	assert_false(fake_console_has("one.too.many"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_names_sanitised, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_many_results, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_storage_full, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("ktap", tests, NULL, NULL);
}
