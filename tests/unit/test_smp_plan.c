// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_smp_plan.c - MADT CPU list -> bring-up list
 * (hv/smp/plan.c): disabled and absent entries, duplicates, the boot CPU,
 * APIC IDs above 255 in x2APIC and xAPIC mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/acpi/acpi.h"
#include "hv/smp/plan.h"
#include "tests/doubles/fake_console.h"

#define CPU(id, en, oc)                                            \
	{                                                          \
		.apic_id = (id), .uid = (id), .enabled = (en),     \
		.online_capable = (oc), .x2apic_entry = (id) > 255 \
	}

static u32 ids[64];

static struct smp_plan plan(const struct madt_cpu *c, u32 n, u32 boot, bool x2)
{
	struct smp_plan p = { .apic_ids = ids };

	fake_console_clear();
	smp_plan_build(c, n, boot, x2, &p);
	return p;
}

static void test_boot_cpu_first_and_skipped(void **s)
{
	const struct madt_cpu c[] = { CPU(0, 1, 0), CPU(1, 1, 0), CPU(2, 1, 0),
				      CPU(3, 1, 0) };
	struct smp_plan p;

	(void)s;
	p = plan(c, 4, 2, true); /* boot CPU is not always the first entry */
	assert_int_equal(p.n, 4);
	assert_int_equal(ids[0], 2);
	assert_int_equal(ids[1], 0);
	assert_int_equal(ids[2], 1);
	assert_int_equal(ids[3], 3);
	assert_true(p.boot_listed);
}

static void test_disabled_and_absent(void **s)
{
	const struct madt_cpu c[] = { CPU(0, 1, 0), CPU(1, 0, 0), CPU(2, 0, 1),
				      CPU(3, 1, 0), CPU(4, 0, 1) };
	struct smp_plan p;

	(void)s;
	p = plan(c, 5, 0, true);
	assert_int_equal(p.n, 2);
	assert_int_equal(ids[1], 3);
	assert_int_equal(p.disabled, 1);
	assert_int_equal(p.absent, 2);
}

static void test_duplicates(void **s)
{
	const struct madt_cpu c[] = { CPU(0, 1, 0), CPU(5, 1, 0), CPU(5, 1, 0),
				      CPU(0, 1, 0), CPU(6, 1, 0) };
	struct smp_plan p;

	(void)s;
	p = plan(c, 5, 0, true);
	assert_int_equal(p.n, 3);
	assert_int_equal(ids[1], 5);
	assert_int_equal(ids[2], 6);
	assert_int_equal(p.duplicates, 2);
	assert_true(fake_console_has("APIC ID 5 listed twice"));
}

static void test_ids_above_255_x2apic(void **s)
{
	const struct madt_cpu c[] = { CPU(0, 1, 0), CPU(255, 1, 0),
				      CPU(256, 1, 0), CPU(0xfffffffe, 1, 0) };
	struct smp_plan p;

	(void)s;
	p = plan(c, 4, 0, true);
	assert_int_equal(p.n, 4);
	assert_int_equal(ids[1], 255);
	assert_int_equal(ids[2], 256);
	assert_int_equal(ids[3], 0xfffffffe);
	assert_int_equal(p.too_high, 0);
}

static void test_ids_above_255_refused_in_xapic(void **s)
{
	const struct madt_cpu c[] = { CPU(0, 1, 0), CPU(255, 1, 0),
				      CPU(256, 1, 0), CPU(1000, 1, 0) };
	struct smp_plan p;

	(void)s;
	p = plan(c, 4, 0, false);
	assert_int_equal(p.n, 2);
	assert_int_equal(ids[1], 255);
	assert_int_equal(p.too_high, 2);
	assert_true(fake_console_has("APIC ID 256 needs x2APIC"));
	assert_true(fake_console_has("APIC ID 1000 needs x2APIC"));
}

static void test_boot_cpu_missing(void **s)
{
	const struct madt_cpu c[] = { CPU(1, 1, 0), CPU(2, 1, 0) };
	struct smp_plan p;

	(void)s;
	p = plan(c, 2, 7, true);
	assert_false(p.boot_listed);
	assert_int_equal(p.n, 3);
	assert_int_equal(ids[0], 7);
	assert_true(
		fake_console_has("boot CPU (APIC ID 7) is not in the MADT"));
}

static void test_many_cpus(void **s)
{
	static struct madt_cpu c[288];
	static u32 big[289];
	struct smp_plan p = { .apic_ids = big };

	(void)s;
	for (u32 i = 0; i < 288; i++)
		c[i] = (struct madt_cpu)CPU(i, 1, 0);
	smp_plan_build(c, 288, 0, true, &p);
	assert_int_equal(p.n, 288);
	assert_int_equal(big[287], 287);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_cpu_first_and_skipped),
		cmocka_unit_test(test_disabled_and_absent),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_ids_above_255_x2apic),
		cmocka_unit_test(test_ids_above_255_refused_in_xapic),
		cmocka_unit_test(test_boot_cpu_missing),
		cmocka_unit_test(test_many_cpus),
	};

	return cmocka_run_group_tests_name("smp_plan", tests, NULL, NULL);
}
