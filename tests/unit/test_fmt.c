// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_fmt.c - the console formatter (lib/fmt.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/fmt.h"

#define CHECK_FMT(expect, ...)                                      \
	do {                                                        \
		char b_[128];                                       \
		int n_ = fmt_snprintf(b_, sizeof(b_), __VA_ARGS__); \
		assert_string_equal(b_, expect);                    \
		assert_int_equal(n_, (int)strlen(expect));          \
	} while (0)

static void test_integers(void **s)
{
	(void)s;
	CHECK_FMT("0", "%d", 0);
	CHECK_FMT("-42", "%d", -42);
	CHECK_FMT("-2147483648", "%d", (int)0x80000000);
	CHECK_FMT("4294967295", "%u", 0xffffffffu);
	CHECK_FMT("18446744073709551615", "%llu", ~0ULL);
	CHECK_FMT("-9223372036854775808", "%lld", (long long)INT64_MIN);
	CHECK_FMT("ffffffffffffffff", "%llx", ~0ULL);
	CHECK_FMT("DEADBEEF", "%X", 0xdeadbeefu);
	CHECK_FMT("0x1f", "%#x", 0x1f);
	CHECK_FMT("0", "%#x", 0);
	CHECK_FMT("17", "%o", 15);
	CHECK_FMT("+5", "%+d", 5);
	CHECK_FMT("255", "%hhu", 0x1ff);
	CHECK_FMT("-1", "%hd", 0xffff);
	CHECK_FMT("123", "%zu", (size_t)123);
}

static void test_width_and_padding(void **s)
{
	(void)s;
	CHECK_FMT("   42", "%5d", 42);
	CHECK_FMT("42   |", "%-5d|", 42);
	CHECK_FMT("00042", "%05d", 42);
	CHECK_FMT("-0042", "%05d", -42);
	CHECK_FMT("0000000000001000", "%016llx", 0x1000ULL);
	CHECK_FMT("  007", "%5.3d", 7);
	CHECK_FMT("   ab", "%5s", "ab");
	CHECK_FMT("ab   |", "%-5s|", "ab");
	CHECK_FMT("abc", "%.3s", "abcdef");
	CHECK_FMT("ab", "%.*s", 2, "abcdef");
	CHECK_FMT("   x", "%*c", 4, 'x');
}

static void test_misc(void **s)
{
	(void)s;
	CHECK_FMT("100%", "100%%");
	CHECK_FMT("0x1000", "%p", (void *)0x1000);
	CHECK_FMT("ok 3 cpuid", "%s %d %s", "ok", 3, "cpuid");
}

/* Formats the compiler's format checker would reject, passed indirectly. */
static void test_unchecked_formats(void **s)
{
	const char *volatile fmt_unknown = "a%yb";
	const char *volatile null_str = NULL;
	char b[32];

	(void)s;
	fmt_snprintf(b, sizeof(b), fmt_unknown);
	assert_string_equal(b, "a%yb");
	fmt_snprintf(b, sizeof(b), "%s", null_str);
	assert_string_equal(b, "(null)");
}

static void test_truncation(void **s)
{
	char b[8];
	int n;

	(void)s;
	memset(b, 'Z', sizeof(b));
	n = fmt_snprintf(b, 5, "hello world");
	assert_int_equal(n, 11);
	assert_string_equal(b, "hell");
	assert_int_equal(b[5], 'Z'); /* nothing written past n */
	n = fmt_snprintf(b, 0, "abc");
	assert_int_equal(n, 3);
	assert_int_equal(b[0], 'h');
	n = fmt_snprintf(b, 1, "%d", 12345);
	assert_int_equal(n, 5);
	assert_string_equal(b, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_width_and_padding),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_unchecked_formats),
		cmocka_unit_test(test_truncation),
	};

	return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}
