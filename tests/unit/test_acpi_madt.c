// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_acpi_madt.c - ACPI discovery (hv/acpi/): broken MADTs
 * (header, entry lengths, truncation, no usable CPU, limits) and SPCR. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "hv/acpi/acpi.h"
#include "hv/acpi/tables.h"
#include "tests/doubles/fake_console.h"

#include "tests/unit/acpi_fixture.h"

static int parse_madt_body(const struct body *m, struct acpi_header **madt)
{
	struct acpi_info a;
	void *t[1];

	*madt = mk_madt(m, 5);
	t[0] = *madt;
	return parse(mk_rsdp(2, NULL, mk_xsdt(t, 1)), &a);
}

static void test_madt_header_errors(void **s)
{
	struct acpi_header *madt;
	struct acpi_info a;
	struct body m;
	void *t[1];

	(void)s;
	one_cpu(&m);
	madt = mk_madt(&m, 5);
	madt->checksum++;
	t[0] = madt;
	assert_int_equal(parse(mk_rsdp(2, NULL, mk_xsdt(t, 1)), &a),
			 ACPI_EBADMADT);
	assert_true(fake_console_has("error: acpi: MADT at 0x"));
	assert_true(fake_console_has(": bad checksum (52 bytes sum to 0x1)\n"));

	fake_console_clear();
	madt = mk_madt(&m, 5);
	madt->length = 20;
	fix_checksum(madt);
	t[0] = madt;
	assert_int_equal(parse(mk_rsdp(2, NULL, mk_xsdt(t, 1)), &a),
			 ACPI_EBADMADT);
	assert_true(
		fake_console_has(": length 20 is below the 36-byte header\n"));

	/* A header but no room for the local APIC address and flags. */
	fake_console_clear();
	madt = mk_table("APIC", 5, "", 0);
	t[0] = madt;
	assert_int_equal(parse(mk_rsdp(2, NULL, mk_xsdt(t, 1)), &a),
			 ACPI_EBADMADT);
	assert_true(fake_console_has(": length 36 is below 44\n"));
	assert_int_equal(alloc_calls, 0);
}

static void test_madt_entry_length_0_and_1(void **s)
{
	struct acpi_header *t;
	struct body m;

	(void)s;
	one_cpu(&m);
	add_raw(&m, (u8[]){ MADT_IOAPIC, 0, 0, 0 }, 4);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has("error: acpi: MADT at 0x"));
	assert_true(fake_console_has(
		": entry at offset 52 (type 1): length 0 is below 12\n"));

	fake_console_clear();
	one_cpu(&m);
	add_raw(&m, (u8[]){ 0x42, 1, 0, 0 }, 4); /* unknown type too */
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has(
		": entry at offset 52 (type 66): length 1 is below 2\n"));
	assert_int_equal(alloc_calls, 0);
}

static void test_madt_entry_past_end(void **s)
{
	struct acpi_header *t;
	struct body m;

	(void)s;
	/* An 8-byte local APIC entry with only 6 bytes left. */
	one_cpu(&m);
	add_raw(&m, (u8[]){ MADT_LAPIC, 8, 1, 1, 1, 0 }, 6);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has(
		": entry at offset 52 (type 0, length 8) runs past the table end (58 bytes)\n"));

	/* An unknown type whose length runs past the end. */
	fake_console_clear();
	one_cpu(&m);
	add_raw(&m, (u8[]){ 0x30, 200, 1, 1 }, 4);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has(
		"(type 48, length 200) runs past the table end (56 bytes)\n"));

	/* One stray byte: not even a type/length header fits. */
	fake_console_clear();
	one_cpu(&m);
	add_raw(&m, (u8[]){ MADT_X2APIC }, 1);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has(
		": entry at offset 52: its 2-byte header runs past the table end (53 bytes)\n"));
	assert_int_equal(alloc_calls, 0);
}

static void test_truncated_x2apic(void **s)
{
	struct acpi_header *t;
	struct body m;

	(void)s;
	one_cpu(&m);
	/* Claims 12 bytes and has them, but a type 9 entry needs 16. */
	add_raw(&m, (u8[]){ MADT_X2APIC, 12, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0 },
		12);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has(
		": entry at offset 52 (type 9): length 12 is below 16\n"));

	fake_console_clear();
	one_cpu(&m);
	add_raw(&m, (u8[]){ MADT_LAPIC_OVERRIDE, 8, 0, 0, 0, 0, 0, 0 }, 8);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has("(type 5): length 8 is below 12\n"));

	/* Longer than today's layout is fine: later revisions append. */
	fake_console_clear();
	one_cpu(&m);
	add_raw(&m, (u8[]){ MADT_X2APIC, 20, 0,	   0,	 0x34, 0x12, 0,
			    0,		 1,  0,	   0,	 0,    9,    0,
			    0,		 0,  0xee, 0xee, 0xee, 0xee },
		20);
	add_lapic(&m, 2, 2, MADT_CPU_ENABLED);
	assert_int_equal(parse_madt_body(&m, &t), 0);
}

static void test_madt_no_usable_cpu(void **s)
{
	struct acpi_header *t;
	struct acpi_info a;
	struct body m;

	(void)s;
	madt_begin(&m, 0xfee00000, 0);
	add_ioapic(&m, 0, 0xfec00000, 0);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has(": no processor entries\n"));
	assert_int_equal(alloc_calls, 0);

	fake_console_clear();
	madt_begin(&m, 0xfee00000, 0);
	add_lapic(&m, 0, 0, 0);
	add_lapic(&m, 1, 1, MADT_CPU_ONLINE_CAPABLE);
	assert_int_equal(parse_madt_body(&m, &t), ACPI_EBADMADT);
	assert_true(fake_console_has(
		": none of its 2 processor entries is enabled\n"));

	fake_console_clear();
	alloc_calls = 0;
	one_cpu(&m);
	assert_int_equal(acpi_parse(hpa(pa_of(mk_machine(&m, 5, NULL))), &a,
				    null_alloc),
			 ACPI_ENOMEM);
	assert_int_equal(alloc_calls, 1);
	assert_true(fake_console_has(
		"error: acpi: MADT: no memory for 1 processor entries\n"));
}

static void test_ioapic_limit(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	one_cpu(&m);
	for (u32 i = 0; i < ACPI_MAX_IOAPIC + 2; i++)
		add_ioapic(&m, (u8)i, 0xfec00000 + i * 0x1000, i * 24);
	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	assert_int_equal(a.nioapic, ACPI_MAX_IOAPIC);
	assert_int_equal(a.ioapic[31].gsi_base, 31 * 24);
	assert_true(fake_console_has(
		"warning: acpi: MADT: more than 32 I/O APICs; ignoring ID 32\n"));
	assert_true(fake_console_has("ignoring ID 33\n"));
}

static void test_spcr_present(void **s)
{
	static const struct {
		u8 code;
		u32 baud;
	} rates[] = {
		{ 0, 0 }, { 3, 9600 }, { 4, 19200 }, { 6, 57600 }, { 7, 115200 }
	};
	struct acpi_info a;
	struct body m;

	(void)s;
	for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
		one_cpu(&m);
		assert_int_equal(parse(mk_machine(&m, 5,
						  mk_spcr(0, ACPI_GAS_IO, 0x2f8,
							  rates[i].code)),
				       &a),
				 0);
		assert_true(a.spcr.present);
		assert_int_equal(a.spcr.interface_type, 0);
		assert_int_equal(a.spcr.space_id, ACPI_GAS_IO);
		assert_int_equal(a.spcr.bit_width, 8);
		assert_int_equal(a.spcr.access_size, 1);
		assert_int_equal(a.spcr.address, 0x2f8);
		assert_int_equal(a.spcr.baud, rates[i].baud);
		acpi_fx_teardown(NULL);
	}
	assert_false(fake_console_has("warning"));

	/* An unknown rate code keeps the port, at the firmware's rate. */
	one_cpu(&m);
	assert_int_equal(
		parse(mk_machine(&m, 5,
				 mk_spcr(0, ACPI_GAS_MEMORY, 0xfedc9000, 5)),
		      &a),
		0);
	assert_true(a.spcr.present);
	assert_int_equal(a.spcr.baud, 0);
	assert_true(fake_console_has("warning: acpi: SPCR at 0x"));
	assert_true(fake_console_has(
		": unknown baud rate code 5; keeping the firmware's rate\n"));
}

static void check_spcr_ignored(struct acpi_header *spcr, const char *why)
{
	struct acpi_info a;
	struct body m;

	fake_console_clear();
	one_cpu(&m);
	assert_int_equal(parse(mk_machine(&m, 5, spcr), &a), 0);
	assert_int_equal(a.ncpus, 1);
	assert_false(a.spcr.present);
	assert_int_equal(a.spcr.address, 0);
	assert_true(fake_console_has("warning: acpi: SPCR at 0x"));
	if (!fake_console_has(why))
		fail_msg("expected '%s' in:\n%s", why, fake_console_text());
	assert_false(fake_console_has("error:"));
}

static void test_spcr_broken(void **s)
{
	struct acpi_header *t;

	(void)s;
	t = mk_spcr(0, ACPI_GAS_IO, 0x3f8, 7);
	t->checksum += 3;
	check_spcr_ignored(
		t, ": bad checksum (80 bytes sum to 0x3); ignoring it\n");

	t = mk_spcr(0, ACPI_GAS_IO, 0x3f8, 7);
	t->length = 58;
	fix_checksum(t);
	check_spcr_ignored(t, ": length 58 is below 80; ignoring it\n");

	t = mk_spcr(0, ACPI_GAS_IO, 0x3f8, 7);
	t->length = 12;
	fix_checksum(t);
	check_spcr_ignored(
		t, ": length 12 is below the 36-byte header; ignoring it\n");

	check_spcr_ignored(
		mk_spcr(0, 2, 0x3f8, 7),
		": address space 2 is neither memory nor I/O; ignoring it\n");
	check_spcr_ignored(mk_spcr(0, ACPI_GAS_IO, 0, 7),
			   ": base address is 0; ignoring it\n");
}

static void test_spcr_absent(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	one_cpu(&m);
	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	assert_false(a.spcr.present);
	assert_string_equal(fake_console_text(), "");
	acpi_print_inventory(&a);
	assert_true(fake_console_has("acpi: no usable SPCR\n"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, acpi_fx_setup, acpi_fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_madt_header_errors),  T(test_madt_entry_length_0_and_1),
		T(test_madt_entry_past_end), T(test_truncated_x2apic),
		T(test_madt_no_usable_cpu),  T(test_ioapic_limit),
		T(test_spcr_present),	     T(test_spcr_broken),
		T(test_spcr_absent),
	};

	return cmocka_run_group_tests_name("acpi_madt", tests, NULL, NULL);
}
