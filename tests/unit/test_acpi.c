// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_acpi.c - ACPI discovery (hv/acpi/): a good machine,
 * the RSDP and root-table rules, inventory printing, 288 CPUs. */
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
#include "lib/checksum.h"
#include "tests/doubles/fake_console.h"

#include "tests/unit/acpi_fixture.h"

/* ---- tests ---- */

/* The one byte sum the parser and the table builder share (lib/), which
 * acpi_fixture.c also uses to make its tables valid: known sums, mod 256. */
static void test_checksum8(void **s)
{
	static const u8 b[] = { 0x01, 0x02, 0xff, 0x80, 0x80 };
	u8 t[36];

	(void)s;
	assert_int_equal(checksum8(b, 0), 0);
	assert_int_equal(checksum8(b, 2), 0x03);
	assert_int_equal(checksum8(b, 3), 0x02); /* 0x102 wraps */
	assert_int_equal(checksum8(b + 3, 2), 0x00);
	assert_int_equal(checksum8(b, sizeof(b)), 0x02);
	/* What a writer does: the negated sum of the rest makes it zero. */
	for (unsigned i = 0; i < sizeof(t); i++)
		t[i] = (u8)(i * 37 + 11);
	t[9] = 0;
	t[9] = (u8)-checksum8(t, sizeof(t));
	assert_int_equal(checksum8(t, sizeof(t)), 0);
	assert_int_not_equal(t[9], 0);
}

static void test_good_v2(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	madt_begin(&m, 0xfee00000, ACPI_MADT_PCAT_COMPAT);
	add_lapic(&m, 0, 0, MADT_CPU_ENABLED);
	add_lapic(&m, 1, 1, MADT_CPU_ENABLED);
	add_ioapic(&m, 8, 0xfec00000, 0);
	add_lapic(&m, 2, 2, 0); /* absent */
	add_lapic(&m, 3, 3, MADT_CPU_ONLINE_CAPABLE);
	add_raw(&m, (u8[]){ 0x7f, 6, 1, 2, 3, 4 }, 6); /* unknown: skipped */
	add_x2apic(&m, 300, 40, MADT_CPU_ENABLED);
	add_x2apic(&m, 5, 41, MADT_CPU_ENABLED); /* x2APIC entry, ID < 255 */
	add_x2apic(&m, 1, 42, MADT_CPU_ENABLED); /* duplicate of ID 1 */
	add_lapic(&m, 9, 0xff, MADT_CPU_ENABLED); /* not an APIC ID */
	add_x2apic(&m, 0xffffffff, 43, MADT_CPU_ENABLED); /* nor this */
	add_x2apic(&m, 0x10000, 44, MADT_CPU_ENABLED);

	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	assert_int_equal(a.rsdp_revision, 2);
	assert_true(a.used_xsdt);
	assert_int_equal(a.lapic_addr, 0xfee00000);
	assert_true(a.pcat_compat);
	assert_int_equal(alloc_calls, 1);
	assert_int_equal(a.ncpus, 7);
	assert_true(alloc_bytes >= a.ncpus * sizeof(struct madt_cpu));
	assert_int_equal(a.duplicates, 1);

	assert_int_equal(a.cpus[0].apic_id, 0);
	assert_true(a.cpus[0].enabled);
	assert_false(a.cpus[0].x2apic_entry);
	assert_false(a.cpus[0].online_capable);
	assert_int_equal(a.cpus[1].apic_id, 1);
	assert_int_equal(a.cpus[1].uid, 1);
	assert_false(a.cpus[1].x2apic_entry); /* the first entry was kept */
	assert_int_equal(a.cpus[2].apic_id, 2);
	assert_false(a.cpus[2].enabled);
	assert_false(a.cpus[2].online_capable);
	assert_int_equal(a.cpus[3].apic_id, 3);
	assert_false(a.cpus[3].enabled);
	assert_true(a.cpus[3].online_capable);
	assert_int_equal(a.cpus[4].apic_id, 300);
	assert_int_equal(a.cpus[4].uid, 40);
	assert_true(a.cpus[4].enabled);
	assert_true(a.cpus[4].x2apic_entry);
	assert_int_equal(a.cpus[5].apic_id, 5);
	assert_true(a.cpus[5].x2apic_entry);
	assert_int_equal(a.cpus[6].apic_id, 0x10000);
	assert_int_equal(a.cpus[6].uid, 44);
	assert_int_equal(acpi_usable_cpus(&a), 5);

	assert_int_equal(a.nioapic, 1);
	assert_int_equal(a.ioapic[0].id, 8);
	assert_int_equal(a.ioapic[0].addr, 0xfec00000);
	assert_int_equal(a.ioapic[0].gsi_base, 0);
	assert_false(a.spcr.present);

	assert_true(fake_console_has(
		"warning: acpi: MADT: APIC ID 1 listed again (x2APIC entry at offset"));
	assert_false(fake_console_has("error:"));
}

/* Online Capable is reserved before MADT revision 5 (ACPI 6.3). */
static void test_online_capable_needs_rev5(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	one_cpu(&m);
	add_lapic(&m, 1, 1, MADT_CPU_ONLINE_CAPABLE);
	add_lapic(&m, 2, 2, MADT_CPU_ENABLED | MADT_CPU_ONLINE_CAPABLE);
	assert_int_equal(parse(mk_machine(&m, 4, NULL), &a), 0);
	assert_int_equal(a.ncpus, 3);
	assert_false(a.cpus[1].online_capable);
	assert_false(a.cpus[1].enabled);
	assert_false(a.pcat_compat);
	acpi_fx_teardown(NULL);

	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	assert_true(a.cpus[1].online_capable);
	/* Enabled wins: the bit must be 0 then, and is ignored. */
	assert_true(a.cpus[2].enabled);
	assert_false(a.cpus[2].online_capable);
}

/* The first entry for an ID wins even when it is the disabled one. */
static void test_duplicate_keeps_first(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	one_cpu(&m);
	add_lapic(&m, 7, 7, 0);
	add_x2apic(&m, 7, 70, MADT_CPU_ENABLED);
	add_x2apic(&m, 0, 71, MADT_CPU_ENABLED);
	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	assert_int_equal(a.ncpus, 2);
	assert_int_equal(a.duplicates, 2);
	assert_int_equal(a.cpus[1].uid, 7);
	assert_false(a.cpus[1].enabled);
	assert_int_equal(acpi_usable_cpus(&a), 1);
	assert_true(fake_console_has("APIC ID 7 listed again"));
	assert_true(fake_console_has("APIC ID 0 listed again"));
}

/* The QEMU 288-CPU shape: type 0 for IDs 0-254, type 9 above. */
static void test_288_cpus(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	madt_begin(&m, 0xfee00000, ACPI_MADT_PCAT_COMPAT);
	for (u32 i = 0; i < 255; i++)
		add_lapic(&m, (u8)i, (u8)i, MADT_CPU_ENABLED);
	for (u32 i = 255; i < 288; i++)
		add_x2apic(&m, i, i, MADT_CPU_ENABLED);
	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	assert_int_equal(a.ncpus, 288);
	assert_int_equal(acpi_usable_cpus(&a), 288);
	assert_int_equal(a.cpus[287].apic_id, 287);
	assert_true(a.cpus[287].x2apic_entry);
	assert_int_equal(a.cpus[254].apic_id, 254);
	assert_false(a.cpus[254].x2apic_entry);
	assert_int_equal(a.duplicates, 0);

	fake_console_clear();
	acpi_print_inventory(&a);
	assert_true(fake_console_has(
		"acpi: 288 processor entries: 288 enabled, 0 online-capable, 0 absent, 33 x2APIC entries; 0 duplicates dropped\n"));
	assert_true(fake_console_has("acpi: enabled APIC IDs: 0-287\n"));
	assert_true(fake_console_has("acpi: x2APIC entries: 255-287\n"));
	assert_false(fake_console_has("online-capable APIC IDs"));
	assert_false(fake_console_has("absent APIC IDs"));
}

static void test_inventory(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	madt_begin(&m, 0xfee00000, ACPI_MADT_PCAT_COMPAT);
	add_lapic(&m, 0, 0, MADT_CPU_ENABLED);
	add_lapic(&m, 1, 1, MADT_CPU_ENABLED);
	add_lapic(&m, 2, 4, MADT_CPU_ENABLED);
	add_lapic(&m, 3, 6, 0);
	add_lapic(&m, 4, 7, MADT_CPU_ONLINE_CAPABLE);
	add_x2apic(&m, 256, 5, MADT_CPU_ENABLED);
	add_x2apic(&m, 1, 6, MADT_CPU_ENABLED);
	add_ioapic(&m, 9, 0xfec01000, 24);
	assert_int_equal(
		parse(mk_machine(&m, 5, mk_spcr(0, ACPI_GAS_IO, 0x3f8, 7)), &a),
		0);
	fake_console_clear();
	acpi_print_inventory(&a);
	assert_true(fake_console_has(
		"acpi: RSDP revision 2, XSDT; local APIC at 0xfee00000; PC-AT compatible 8259s\n"));
	assert_true(fake_console_has(
		"acpi: 6 processor entries: 4 enabled, 1 online-capable, 1 absent, 1 x2APIC entries; 1 duplicates dropped\n"));
	assert_true(fake_console_has("acpi: enabled APIC IDs: 0-1 4 256\n"));
	assert_true(fake_console_has("acpi: x2APIC entries: 256\n"));
	assert_true(fake_console_has("acpi: online-capable APIC IDs: 7\n"));
	assert_true(fake_console_has("acpi: absent APIC IDs: 6\n"));
	assert_true(fake_console_has(
		"acpi: I/O APIC ID 9 at 0xfec01000, GSI base 24\n"));
	assert_true(fake_console_has(
		"acpi: SPCR console: interface type 0 at I/O 0x3f8, width 8, access size 1\n"));
	assert_true(fake_console_has("acpi: SPCR console: 115200 baud\n"));
}

/* Many scattered IDs wrap onto more lines instead of overflowing one. */
static void test_inventory_wraps(void **s)
{
	struct acpi_info a;
	struct body m;
	const char *t;
	int lines = 0;

	(void)s;
	madt_begin(&m, 0xfee00000, 0);
	for (u32 i = 0; i < 200; i++)
		add_x2apic(&m, 1000 + 2 * i, i, MADT_CPU_ENABLED);
	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	fake_console_clear();
	acpi_print_inventory(&a);
	for (t = fake_console_text();
	     (t = strstr(t, "acpi: enabled APIC IDs:")); t++)
		lines++;
	assert_true(lines > 5);
	assert_true(fake_console_has(" 1000 1002 1004"));
	assert_true(fake_console_has(" 1398\n"));
	for (t = fake_console_text(); *t; t = strchr(t, '\n') + 1)
		assert_true(strchr(t, '\n') - t < 120);
}

static void test_lapic_override(void **s)
{
	struct acpi_info a;
	struct body m;

	(void)s;
	one_cpu(&m);
	add_override(&m, 0x1234567000ULL);
	add_lapic(&m, 1, 1, MADT_CPU_ENABLED);
	assert_int_equal(parse(mk_machine(&m, 5, NULL), &a), 0);
	assert_int_equal(a.lapic_addr, 0x1234567000ULL);
	assert_int_equal(a.ncpus, 2);
}

static void test_rsdt_revision0(void **s)
{
	struct acpi_info a;
	struct body m;
	void *t[2];

	(void)s;
	one_cpu(&m);
	add_x2apic(&m, 400, 1, MADT_CPU_ENABLED);
	t[0] = mk_madt(&m, 3);
	t[1] = mk_spcr(0x12, ACPI_GAS_MEMORY, 0xfedc9000, 0);
	/* rev 0: the RSDP is 20 bytes and right before a guard page. */
	assert_int_equal(parse(mk_rsdp(0, mk_rsdt(t, 2), NULL), &a), 0);
	assert_int_equal(a.rsdp_revision, 0);
	assert_false(a.used_xsdt);
	assert_int_equal(a.ncpus, 2);
	assert_int_equal(a.cpus[1].apic_id, 400);
	assert_true(a.spcr.present);
	assert_int_equal(a.spcr.interface_type, 0x12);
	assert_int_equal(a.spcr.space_id, ACPI_GAS_MEMORY);
	assert_int_equal(a.spcr.address, 0xfedc9000);
	assert_int_equal(a.spcr.baud, 0);
}

/* Revision 2 with no XSDT address: the RSDT still works. */
static void test_rsdt_when_xsdt_zero(void **s)
{
	struct acpi_info a;
	struct body m;
	void *t[1];

	(void)s;
	one_cpu(&m);
	t[0] = mk_madt(&m, 5);
	assert_int_equal(parse(mk_rsdp(2, mk_rsdt(t, 1), NULL), &a), 0);
	assert_int_equal(a.rsdp_revision, 2);
	assert_false(a.used_xsdt);
	assert_int_equal(a.ncpus, 1);
}

/* Revision 2 with both: the XSDT wins, the RSDT is not looked at. */
static void test_xsdt_preferred(void **s)
{
	struct acpi_info a;
	struct body m1, m2;
	void *t1[1], *t2[1];

	(void)s;
	one_cpu(&m1);
	madt_begin(&m2, 0xfee00000, 0);
	add_x2apic(&m2, 999, 0, MADT_CPU_ENABLED);
	t1[0] = mk_madt(&m1, 5);
	t2[0] = mk_madt(&m2, 5);
	assert_int_equal(parse(mk_rsdp(2, mk_rsdt(t1, 1), mk_xsdt(t2, 1)), &a),
			 0);
	assert_true(a.used_xsdt);
	assert_int_equal(a.cpus[0].apic_id, 999);
}

static void test_bad_rsdp(void **s)
{
	struct acpi_info a;
	struct acpi_rsdp *r;
	struct body m;
	void *x;

	(void)s;
	one_cpu(&m);
	x = mk_xsdt((void *[]){ mk_madt(&m, 5) }, 1);

	r = mk_rsdp(2, NULL, x);
	r->signature[4] = 'X';
	assert_int_equal(parse(r, &a), ACPI_EBADRSDP);
	assert_true(fake_console_has("error: acpi: RSDP at 0x"));
	assert_true(fake_console_has("signature is not 'RSD PTR '\n"));
	assert_int_equal(alloc_calls, 0);

	fake_console_clear();
	r = mk_rsdp(2, NULL, x);
	r->checksum++;
	r->ext_checksum--; /* the 36-byte sum still holds */
	assert_int_equal(parse(r, &a), ACPI_EBADRSDP);
	assert_true(fake_console_has("bad checksum over the first 20 bytes\n"));

	fake_console_clear();
	r = mk_rsdp(2, NULL, x);
	r->ext_checksum++;
	assert_int_equal(parse(r, &a), ACPI_EBADRSDP);
	assert_true(fake_console_has(
		"bad extended checksum over 36 bytes (revision 2)\n"));

	fake_console_clear();
	assert_int_equal(acpi_parse(hpa(0), &a, test_alloc), ACPI_EBADRSDP);
	assert_true(fake_console_has("error: acpi: RSDP at 0: signature"));
}

static void test_bad_root(void **s)
{
	struct acpi_info a;
	struct acpi_header *x;
	struct body m;
	void *t[1];

	(void)s;
	one_cpu(&m);
	t[0] = mk_madt(&m, 5);

	x = mk_xsdt(t, 1);
	x->checksum += 0x40;
	assert_int_equal(parse(mk_rsdp(2, NULL, x), &a), ACPI_EBADROOT);
	assert_true(fake_console_has("error: acpi: XSDT at 0x"));
	assert_true(fake_console_has(
		" (RSDP revision 2): bad checksum (44 bytes sum to 0x40)\n"));

	fake_console_clear();
	x = mk_xsdt(t, 1);
	memcpy(x->signature, "RSDT", 4);
	fix_checksum(x);
	assert_int_equal(parse(mk_rsdp(2, NULL, x), &a), ACPI_EBADROOT);
	assert_true(fake_console_has("XSDT at"));
	assert_true(fake_console_has("signature is 'RSDT'\n"));

	fake_console_clear();
	x = mk_rsdt(t, 1);
	x->length = 35;
	assert_int_equal(parse(mk_rsdp(0, x, NULL), &a), ACPI_EBADROOT);
	assert_true(fake_console_has("error: acpi: RSDT at"));
	assert_true(
		fake_console_has("length 35 is below the 36-byte header\n"));

	fake_console_clear();
	assert_int_equal(parse(mk_rsdp(0, NULL, NULL), &a), ACPI_EBADROOT);
	assert_true(fake_console_has(
		"error: acpi: RSDT at 0 (RSDP revision 0): address is 0\n"));
}

/* The entry count comes from the root table's length, not from memory. */
static void test_root_entries_from_length(void **s)
{
	struct acpi_info a;
	struct acpi_header *x;
	struct body m;
	void *t[3];

	(void)s;
	one_cpu(&m);
	t[0] = NULL; /* null entries are skipped */
	t[1] = mk_table("HPET", 1, "abcd", 4);
	t[2] = mk_madt(&m, 5);
	x = mk_xsdt(t, 3);
	assert_int_equal(parse(mk_rsdp(2, NULL, x), &a), 0);
	assert_int_equal(a.ncpus, 1);
	acpi_fx_teardown(NULL);

	/* Same XSDT, length cut to two entries: the MADT is not listed. */
	one_cpu(&m);
	t[1] = mk_table("HPET", 1, "abcd", 4);
	t[2] = mk_madt(&m, 5);
	x = mk_xsdt(t, 3);
	x->length -= 8;
	fix_checksum(x);
	fake_console_clear();
	assert_int_equal(parse(mk_rsdp(2, NULL, x), &a), ACPI_ENOMADT);
	assert_true(fake_console_has(
		"error: acpi: no MADT (signature 'APIC') in the XSDT at 0x"));
}

static void test_no_madt(void **s)
{
	struct acpi_info a;
	void *t[1];

	(void)s;
	t[0] = mk_spcr(0, ACPI_GAS_IO, 0x3f8, 7);
	assert_int_equal(parse(mk_rsdp(0, mk_rsdt(t, 1), NULL), &a),
			 ACPI_ENOMADT);
	assert_true(fake_console_has(
		"error: acpi: no MADT (signature 'APIC') in the RSDT at 0x"));
	assert_int_equal(alloc_calls, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, acpi_fx_setup, acpi_fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_checksum8),
		T(test_good_v2),
		T(test_online_capable_needs_rev5),
		T(test_duplicate_keeps_first),
		T(test_288_cpus),
		T(test_inventory),
		T(test_inventory_wraps),
		T(test_lapic_override),
		T(test_rsdt_revision0),
		T(test_rsdt_when_xsdt_zero),
		T(test_xsdt_preferred),
		T(test_bad_rsdp),
		T(test_bad_root),
		T(test_root_entries_from_length),
		T(test_no_madt),
	};

	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
