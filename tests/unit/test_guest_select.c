// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_guest_select.c - the tests= reader (lib/select.c) and
 * which scenarios a filter selects (guest/select.c), built for the host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "guest/test.h"
#include "lib/phrase.h"
#include "lib/select.h"

static const struct scenario hello = { "hello", "basic", NULL, NULL, 0 };
static const struct scenario smp = { "smp", "smp", NULL, NULL, 0 };
static const struct scenario npf = { "hostile_npf", "hostile", NULL, NULL,
				     SCN_MANUAL };

static bool glob(const char *p, const char *s)
{
	return select_glob(p, strlen(p), s);
}

static void test_glob(void **st)
{
	(void)st;
	assert_true(glob("hello", "hello"));
	assert_false(glob("hello", "hell"));
	assert_false(glob("hell", "hello"));
	assert_true(glob("h*", "hello"));
	assert_true(glob("*o", "hello"));
	assert_true(glob("*", ""));
	assert_true(glob("h?llo", "hello"));
	assert_false(glob("h?llo", "hllo"));
	assert_true(glob("*l*l*", "hello"));
	assert_false(glob("*x*", "hello"));
	assert_true(glob("", ""));
	assert_false(glob("", "a"));
	/* Only the first n bytes of the pattern count. */
	assert_true(select_glob("hello,smp", 5, "hello"));
	assert_false(select_glob("hello,smp", 6, "hello"));
}

static void test_words(void **st)
{
	const char *list = " ,hello,\tsmp  h*,";
	const char *p;
	size_t n;

	(void)st;
	p = select_next(list, &n);
	assert_ptr_equal(p, list + 2);
	assert_int_equal(n, 5);
	p = select_next(p + n, &n);
	assert_ptr_equal(p, list + 9);
	assert_int_equal(n, 3);
	p = select_next(p + n, &n);
	assert_ptr_equal(p, list + 14);
	assert_int_equal(n, 2);
	assert_null(select_next(p + n, &n));
	assert_int_equal(n, 0);
	assert_null(select_next("", &n));
	assert_null(select_next(" ,\t", &n));
}

/* The hypervisor's suite names: whole words, no globs. */
static void test_has_word(void **st)
{
	(void)st;
	assert_true(select_has_word("all", "all"));
	assert_true(select_has_word("hello, hostile", "hostile"));
	assert_true(select_has_word("hello\tlifecycle,", "lifecycle"));
	assert_false(select_has_word("hostile_read", "hostile"));
	assert_false(select_has_word("host", "hostile"));
	assert_false(select_has_word("a*", "all"));
	assert_false(select_has_word("", "all"));
	assert_false(select_has_word("hello", ""));
}

/* The hostile judge: an expected stop reason matches whole words only. */
static void test_has_phrase(void **st)
{
	(void)st;
	assert_true(has_phrase("exited with status 1", "exited with status 1"));
	assert_true(has_phrase("guest: exited with status 1, ok",
			       "exited with status 1"));
	assert_false(
		has_phrase("exited with status 10", "exited with status 1"));
	assert_false(
		has_phrase("exited with status 11", "exited with status 1"));
	assert_false(
		has_phrase("exited with status 100", "exited with status 1"));
	assert_false(
		has_phrase("unexited with status 1", "exited with status 1"));
	assert_true(has_phrase(
		"vCPU 0: run-time limit of 1000 ms reached at RIP 0x1",
		"run-time limit of 1000 ms reached"));
	assert_false(has_phrase(
		"vCPU 0: run-time limit of 10000 ms reached at RIP 0x1",
		"run-time limit of 1000 ms reached"));
	assert_true(has_phrase("limit; console flood: 12 bytes",
			       "; console flood: "));
	assert_false(has_phrase("anything", ""));
	assert_false(has_phrase("", "x"));
}

static void test_default_suite(void **st)
{
	(void)st;
	assert_true(scenario_selected(&hello, ""));
	assert_true(scenario_selected(&smp, " , "));
	assert_false(scenario_selected(&npf, ""));
}

static void test_by_name_and_group(void **st)
{
	(void)st;
	assert_true(scenario_selected(&hello, "hello"));
	assert_false(scenario_selected(&smp, "hello"));
	assert_true(scenario_selected(&hello, "basic"));
	assert_false(scenario_selected(&smp, "basic"));
	assert_true(scenario_selected(&smp, "hello,smp"));
	assert_true(scenario_selected(&smp, "hello smp"));
	assert_true(scenario_selected(&npf, "hostile"));
	assert_true(scenario_selected(&npf, "hostile_*"));
	assert_true(scenario_selected(&npf, "*")); /* globs reach manual ones */
	assert_false(scenario_selected(&hello, "hostile"));
	assert_false(scenario_selected(&hello, "nosuch"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_has_word),
		cmocka_unit_test(test_has_phrase),
		cmocka_unit_test(test_default_suite),
		cmocka_unit_test(test_by_name_and_group),
	};

	return cmocka_run_group_tests_name("guest_select", tests, NULL, NULL);
}
