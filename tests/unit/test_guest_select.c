/* tests/unit/test_guest_select.c - which scenarios a filter selects
 * (guest/select.c, built for the host). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "guest/test.h"

static const struct scenario hello = { "hello", "basic", NULL, NULL, 0 };
static const struct scenario smp = { "smp", "smp", NULL, NULL, 0 };
static const struct scenario npf = { "hostile_npf", "hostile", NULL, NULL,
				     SCN_MANUAL };

static bool glob(const char *p, const char *s)
{
	return glob_match(p, strlen(p), s);
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
	assert_true(glob_match("hello,smp", 5, "hello"));
	assert_false(glob_match("hello,smp", 6, "hello"));
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
		cmocka_unit_test(test_default_suite),
		cmocka_unit_test(test_by_name_and_group),
	};

	return cmocka_run_group_tests_name("guest_select", tests, NULL, NULL);
}
