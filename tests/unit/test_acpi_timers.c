// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_acpi_timers.c - the reference clocks from ACPI
 * (hv/acpi/timers.c): the PM timer port from PM_TMR_BLK or X_PM_TMR_BLK
 * and its width, the HPET base, and what is refused (memory-space PM
 * timers, a bad PM_TMR_LEN, a short or broken HPET table). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/acpi/acpi.h"
#include "hv/acpi/tables.h"
#include "tests/doubles/fake_console.h"

#include "tests/unit/acpi_fixture.h"

static struct acpi_header *mk_fadt(const struct acpi_fadt *f, u32 len)
{
	return mk_table("FACP", 3, (const u8 *)f + ACPI_HEADER_LEN,
			len - ACPI_HEADER_LEN);
}

static struct acpi_header *mk_hpet(u8 space, u64 addr, u32 len)
{
	struct acpi_hpet h = {
		.block_id = 0x8086a201,
		.base = { .space_id = space, .bit_width = 64, .address = addr }
	};

	return mk_table("HPET", 1, (const u8 *)&h + ACPI_HEADER_LEN,
			len - ACPI_HEADER_LEN);
}

/* A one-CPU machine with these tables (either may be NULL). */
static int machine(struct acpi_header *fadt, struct acpi_header *hpet,
		   struct acpi_info *a)
{
	struct body m;
	void *t[3];
	int n = 0;

	one_cpu(&m);
	t[n++] = mk_madt(&m, 3);
	if (fadt)
		t[n++] = fadt;
	if (hpet)
		t[n++] = hpet;
	return parse(mk_rsdp(2, NULL, mk_xsdt(t, n)), a);
}

static void test_pm_timer_from_pm_tmr_blk(void **s)
{
	struct acpi_fadt f = { .pm_tmr_blk = 0x608,
			       .pm_tmr_len = 4,
			       .flags = ACPI_FADT_TMR_VAL_EXT };
	struct acpi_info a;

	(void)s;
	/* an ACPI 1.0 FADT: 116 bytes, no X_ fields */
	assert_int_equal(machine(mk_fadt(&f, 116), NULL, &a), 0);
	assert_true(a.timers.fadt);
	assert_int_equal(a.timers.pm_tmr_port, 0x608);
	assert_true(a.timers.pm_tmr_32);
	assert_int_equal(a.timers.hpet_addr, 0);
	f.flags = 0;
	assert_int_equal(machine(mk_fadt(&f, 116), NULL, &a), 0);
	assert_false(a.timers.pm_tmr_32);
}

static void test_x_pm_tmr_blk_wins(void **s)
{
	struct acpi_fadt f = {
		.pm_tmr_blk = 0x608,
		.pm_tmr_len = 4,
		.x_pm_tmr_blk = { .space_id = ACPI_GAS_IO, .address = 0xb008 },
	};
	struct acpi_info a;

	(void)s;
	assert_int_equal(machine(mk_fadt(&f, ACPI_FADT_REV3_LEN), NULL, &a), 0);
	assert_int_equal(a.timers.pm_tmr_port, 0xb008);
	/* ... but not when the table is too short to hold it */
	assert_int_equal(machine(mk_fadt(&f, 200), NULL, &a), 0);
	assert_int_equal(a.timers.pm_tmr_port, 0x608);
}

static void test_unusable_pm_timers(void **s)
{
	struct acpi_fadt f = {
		.x_pm_tmr_blk = { .space_id = ACPI_GAS_MEMORY,
				  .address = 0xfed80000 },
	};
	struct acpi_info a;

	(void)s;
	fake_console_clear();
	assert_int_equal(machine(mk_fadt(&f, ACPI_FADT_REV3_LEN), NULL, &a), 0);
	assert_int_equal(a.timers.pm_tmr_port, 0);
	assert_true(fake_console_has("PM timer in address space 0, not I/O"));
	f = (struct acpi_fadt){ .pm_tmr_blk = 0x808, .pm_tmr_len = 3 };
	assert_int_equal(machine(mk_fadt(&f, 116), NULL, &a), 0);
	assert_int_equal(a.timers.pm_tmr_port, 0);
	assert_true(fake_console_has("PM_TMR_LEN is 3"));
	/* hardware-reduced ACPI has none, and says so */
	f = (struct acpi_fadt){ .flags = ACPI_FADT_HW_REDUCED };
	assert_int_equal(machine(mk_fadt(&f, ACPI_FADT_REV3_LEN), NULL, &a), 0);
	assert_true(a.timers.hw_reduced);
	assert_int_equal(a.timers.pm_tmr_port, 0);
	/* no FADT at all: parsing still succeeds */
	assert_int_equal(machine(NULL, NULL, &a), 0);
	assert_false(a.timers.fadt);
}

static void test_hpet(void **s)
{
	struct acpi_header *bad;
	struct acpi_info a;

	(void)s;
	assert_int_equal(
		machine(NULL,
			mk_hpet(ACPI_GAS_MEMORY, 0xfed00000, ACPI_HPET_LEN),
			&a),
		0);
	assert_int_equal(a.timers.hpet_addr, 0xfed00000);
	fake_console_clear();
	assert_int_equal(
		machine(NULL, mk_hpet(ACPI_GAS_IO, 0xfed00000, ACPI_HPET_LEN),
			&a),
		0);
	assert_int_equal(a.timers.hpet_addr, 0);
	assert_true(fake_console_has("not memory; not used"));
	assert_int_equal(
		machine(NULL, mk_hpet(ACPI_GAS_MEMORY, 0xfed00000, 48), &a), 0);
	assert_int_equal(a.timers.hpet_addr, 0);
	/* a broken checksum: ignored with a warning, not an error */
	bad = mk_hpet(ACPI_GAS_MEMORY, 0xfed00000, ACPI_HPET_LEN);
	bad->checksum ^= 1;
	fake_console_clear();
	assert_int_equal(machine(NULL, bad, &a), 0);
	assert_int_equal(a.timers.hpet_addr, 0);
	assert_true(fake_console_has("acpi: HPET at"));
	assert_true(fake_console_has("bad checksum"));
}

static void test_inventory_line(void **s)
{
	struct acpi_fadt f = { .pm_tmr_blk = 0x608, .pm_tmr_len = 4 };
	struct acpi_info a;

	(void)s;
	assert_int_equal(
		machine(mk_fadt(&f, 116),
			mk_hpet(ACPI_GAS_MEMORY, 0xfed00000, ACPI_HPET_LEN),
			&a),
		0);
	fake_console_clear();
	acpi_print_inventory(&a);
	assert_true(fake_console_has(
		"acpi: PM timer at I/O port 0x608 (24-bit); HPET at 0xfed00000\n"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, acpi_fx_setup, acpi_fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_pm_timer_from_pm_tmr_blk), T(test_x_pm_tmr_blk_wins),
		T(test_unusable_pm_timers),	  T(test_hpet),
		T(test_inventory_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
