// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_boot_prof.c - the boot profile (hv/boot_prof.c) on a
 * scripted TSC: each phase gets the time until the next mark, a phase
 * entered twice adds up, the first VMRUN ends it once, and the printed
 * line names only phases that took time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/boot_prof.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"

static u64 tsc;

static u64 scripted_tsc(void)
{
	return tsc;
}

static void test_profile(void **s)
{
	(void)s;
	fake_rdtsc_hook = scripted_tsc;
	fake_console_clear();
	/* Before efi_main's start: no effect, nothing printed. */
	tsc = 50;
	assert_int_equal(prof_mark(PROF_SMP), PROF_EFI);
	prof_print();
	assert_string_equal(fake_console_text(), "");

	prof_start(100);
	tsc = 150;
	assert_int_equal(prof_mark(PROF_SMP), PROF_EFI);
	tsc = 400;
	assert_int_equal(prof_mark(PROF_SELFTEST), PROF_SMP); /* nested */
	tsc = 450;
	assert_int_equal(prof_mark(PROF_SMP), PROF_SELFTEST); /* back */
	tsc = 480;
	assert_int_equal(prof_mark(PROF_GUEST), PROF_SMP);
	tsc = 500;
	prof_first_vmrun();
	/* Ended: a second vCPU's first VMRUN and later marks change nothing. */
	tsc = 900;
	prof_first_vmrun();
	prof_mark(PROF_GUEST);
	prof_print();
	assert_string_equal(fake_console_text(),
			    "boot: profile total=400 efi=50 smp=280 "
			    "selftests=50 guest=20 tsc\n");
	fake_rdtsc_hook = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
