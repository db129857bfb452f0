// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_mtrr_range.c - mtrr_set_range(): validation, merging
 * into the variable MTRRs, and the rendezvous it re-runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "arch/errno.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_smp_pthread.h"
#include "tests/unit/test_mtrr_fixture.h"

#define NCPU 3
#define G (1ULL << 30)

static int setup(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	assert_int_equal(mtrr_init(), 0);
	fake_console_clear();
	return 0;
}

/* err is returned, printed as an error, and nothing is run or written. */
static void rejected(u64 base, u64 size, u8 type, int err, const char *msg)
{
	u32 calls = fake_smp_calls();

	fake_console_clear();
	fake_trace_clear();
	assert_int_equal(mtrr_set_range(base, size, type), err);
	assert_int_equal(fake_smp_calls(), calls);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	if (!fake_console_has("error: mtrr: ") || !fake_console_has(msg))
		fail_msg("console lacks \"%s\":\n%s", msg, fake_console_text());
}

static void all_cpus_have(unsigned slot, u64 base, u64 mask)
{
	for (unsigned c = 0; c < NCPU; c++) {
		assert_int_equal(fake_msr_read(c, MSR_MTRR_PHYSBASE(slot)),
				 base);
		assert_int_equal(fake_msr_read(c, MSR_MTRR_PHYSMASK(slot)),
				 mask);
	}
}

static void test_before_init(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	rejected(4 * G, G, MTRR_TYPE_WC, -ENODEV, "before mtrr_init");
}

static void test_bad_type(void **st)
{
	(void)st;
	rejected(4 * G, G, 2, -EINVAL, "type 2");
	rejected(4 * G, G, 3, -EINVAL, "type 3");
	rejected(4 * G, G, 7, -EINVAL, "type 7");
	rejected(4 * G, G, 0xff, -EINVAL, "type 255");
}

static void test_bad_size(void **st)
{
	(void)st;
	rejected(4 * G, 0, MTRR_TYPE_WC, -EINVAL, "size 0 is not");
	rejected(4 * G, 3 * 4096, MTRR_TYPE_WC, -EINVAL, "power of two");
	rejected(4 * G, G + 4096, MTRR_TYPE_WC, -EINVAL, "power of two");
	rejected(4 * G, 2048, MTRR_TYPE_WC, -EINVAL, ">= 4 KiB");
}

static void test_misaligned(void **st)
{
	(void)st;
	rejected(4096, 8192, MTRR_TYPE_WC, -EINVAL, "not aligned");
	rejected(5 * G, 2 * G, MTRR_TYPE_WC, -EINVAL, "not aligned");
}

static void test_beyond_phys_bits(void **st)
{
	(void)st;
	rejected(1ULL << T_PA_BITS, 4096, MTRR_TYPE_WB, -ERANGE,
		 "beyond 48 physical address bits");
	rejected(0, 1ULL << (T_PA_BITS + 1), MTRR_TYPE_WB, -ERANGE,
		 "beyond 48");
	rejected(1ULL << 63, 1ULL << 63, MTRR_TYPE_WB, -ERANGE, "beyond 48");
	/* the very top of the address space is fine */
	assert_int_equal(mtrr_set_range((1ULL << T_PA_BITS) - 4096, 4096,
					MTRR_TYPE_UC),
			 0);
	all_cpus_have(1, ((1ULL << T_PA_BITS) - 4096) | MTRR_TYPE_UC,
		      T_VMASK(4096));
}

static void test_new_range_goes_to_free_slot_on_every_cpu(void **st)
{
	u32 calls = fake_smp_calls();

	(void)st;
	assert_int_equal(mtrr_set_range(4 * G, G, MTRR_TYPE_WC), 0);
	assert_true(fake_smp_calls() > calls);
	all_cpus_have(1, 4 * G | MTRR_TYPE_WC, T_VMASK(G));
	/* the UC hole in slot 0 is left alone */
	all_cpus_have(0, 2 * G | MTRR_TYPE_UC, T_VMASK(2 * G));
	assert_int_equal(mtrr_current()->var[1].base, 4 * G | MTRR_TYPE_WC);
	assert_int_equal(mtrr_last_stats()->mismatch_cpus, 0);
	assert_true(fake_console_has("variable MTRR 1 := "));
}

static void test_identical_range_is_merged(void **st)
{
	u32 calls;

	(void)st;
	assert_int_equal(mtrr_set_range(4 * G, G, MTRR_TYPE_WC), 0);
	/* same range, same type: nothing to do, no rendezvous */
	calls = fake_smp_calls();
	fake_trace_clear();
	assert_int_equal(mtrr_set_range(4 * G, G, MTRR_TYPE_WC), 0);
	assert_int_equal(fake_smp_calls(), calls);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	/* same range, new type: the same slot changes */
	assert_int_equal(mtrr_set_range(4 * G, G, MTRR_TYPE_WT), 0);
	all_cpus_have(1, 4 * G | MTRR_TYPE_WT, T_VMASK(G));
	all_cpus_have(2, 0, 0);
	/* the firmware's own range can be retyped the same way */
	assert_int_equal(mtrr_set_range(2 * G, 2 * G, MTRR_TYPE_WC), 0);
	all_cpus_have(0, 2 * G | MTRR_TYPE_WC, T_VMASK(2 * G));
	all_cpus_have(2, 0, 0);
}

static void test_overlap_rejected(void **st)
{
	(void)st;
	/* inside the 2..4 GiB UC hole */
	rejected(3 * G, G, MTRR_TYPE_WC, -EBUSY, "overlaps variable MTRR 0");
	/* containing it */
	rejected(0, 8 * G, MTRR_TYPE_WB, -EBUSY, "splitting is not supported");
	/* next to it is fine */
	assert_int_equal(mtrr_set_range(4 * G, 4 * G, MTRR_TYPE_WB), 0);
	assert_int_equal(mtrr_set_range(G, G, MTRR_TYPE_WT), 0);
}

static void test_no_free_mtrr(void **st)
{
	(void)st;
	for (unsigned i = 1; i < 8; i++)
		assert_int_equal(
			mtrr_set_range((u64)(4 + i) * G, G, MTRR_TYPE_WC), 0);
	for (unsigned i = 1; i < 8; i++)
		all_cpus_have(i, (u64)(4 + i) * G | MTRR_TYPE_WC, T_VMASK(G));
	rejected(64 * G, G, MTRR_TYPE_WC, -ENOSPC,
		 "all 8 variable MTRRs are in use");
	/* an identical one still merges when all are used */
	assert_int_equal(mtrr_set_range(5 * G, G, MTRR_TYPE_UC), 0);
	all_cpus_have(1, 5 * G | MTRR_TYPE_UC, T_VMASK(G));
}

int t_range_tests(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_before_init),
		cmocka_unit_test_setup(test_bad_type, setup),
		cmocka_unit_test_setup(test_bad_size, setup),
		cmocka_unit_test_setup(test_misaligned, setup),
		cmocka_unit_test_setup(test_beyond_phys_bits, setup),
		cmocka_unit_test_setup(
			test_new_range_goes_to_free_slot_on_every_cpu, setup),
		cmocka_unit_test_setup(test_identical_range_is_merged, setup),
		cmocka_unit_test_setup(test_overlap_rejected, setup),
		cmocka_unit_test_setup(test_no_free_mtrr, setup),
	};

	return cmocka_run_group_tests_name("mtrr_range", t, NULL, NULL);
}
