/* tests/unit/test_acpi.c - ACPI discovery (hv/acpi*.c) against tables built
 * in memory. Each table ends right before a PROT_NONE page, so any read
 * past a table's end crashes the test instead of passing silently. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "hv/acpi.h"
#include "hv/acpi_tables.h"
#include "tests/doubles/fake_console.h"

/* ---- guarded memory below 4 GiB (RSDT entries are 32-bit) ---- */

#define MAX_MAPS 64
static struct {
	void *base;
	size_t size;
} maps[MAX_MAPS];
static int nmaps;

/* len bytes whose last byte sits just before an unreadable page. */
static void *guarded(size_t len)
{
	size_t rw = (len + 4095) / 4096, size = (rw + 1) * 4096;
	u8 *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	assert_true(p != MAP_FAILED);
	assert_int_equal(mprotect(p + rw * 4096, 4096, PROT_NONE), 0);
	assert_true(nmaps < MAX_MAPS);
	maps[nmaps].base = p;
	maps[nmaps++].size = size;
	return p + rw * 4096 - len;
}

static u8 sum(const void *p, size_t n)
{
	const u8 *b = p;
	u8 s = 0;

	while (n--)
		s += *b++;
	return s;
}

static void fix_checksum(struct acpi_header *h)
{
	h->checksum = 0;
	h->checksum = (u8)-sum(h, h->length);
}

/* A table: header + body, in guarded memory, checksum right. */
static struct acpi_header *mk_table(const char *sig, u8 rev, const void *body,
				    size_t body_len)
{
	size_t len = ACPI_HEADER_LEN + body_len;
	struct acpi_header *h = guarded(len);

	memset(h, 0, ACPI_HEADER_LEN);
	memcpy(h->signature, sig, 4);
	h->length = (u32)len;
	h->revision = rev;
	memcpy(h->oem_id, "MINHV ", 6);
	memcpy((u8 *)h + ACPI_HEADER_LEN, body, body_len);
	fix_checksum(h);
	return h;
}

static u64 pa_of(const void *p)
{
	return (u64)(uintptr_t)p;
}

static struct acpi_header *mk_xsdt(void *const *tables, int n)
{
	u64 e[16];

	for (int i = 0; i < n; i++)
		e[i] = pa_of(tables[i]);
	return mk_table("XSDT", 1, e, (size_t)n * 8);
}

static struct acpi_header *mk_rsdt(void *const *tables, int n)
{
	u32 e[16];

	for (int i = 0; i < n; i++)
		e[i] = (u32)pa_of(tables[i]);
	return mk_table("RSDT", 1, e, (size_t)n * 4);
}

/* Revision 0: a 20-byte structure, nothing after it may be read. */
static struct acpi_rsdp *mk_rsdp(u8 rev, void *rsdt, void *xsdt)
{
	size_t len = rev >= 2 ? ACPI_RSDP_V2_LEN : ACPI_RSDP_V1_LEN;
	struct acpi_rsdp *r = guarded(len);

	memset(r, 0, len);
	memcpy(r->signature, "RSD PTR ", 8);
	memcpy(r->oem_id, "MINHV ", 6);
	r->revision = rev;
	r->rsdt_address = (u32)pa_of(rsdt);
	r->checksum = (u8)-sum(r, ACPI_RSDP_V1_LEN);
	if (rev >= 2) {
		r->length = ACPI_RSDP_V2_LEN;
		r->xsdt_address = pa_of(xsdt);
		r->ext_checksum = (u8)-sum(r, ACPI_RSDP_V2_LEN);
	}
	return r;
}

/* ---- MADT body builder ---- */

struct body {
	u8 b[8192];
	size_t n;
};

static void madt_begin(struct body *m, u32 lapic_addr, u32 flags)
{
	m->n = 0;
	memcpy(m->b, &lapic_addr, 4);
	memcpy(m->b + 4, &flags, 4);
	m->n = 8;
}

static void add_raw(struct body *m, const void *e, size_t n)
{
	assert_true(m->n + n <= sizeof(m->b));
	memcpy(m->b + m->n, e, n);
	m->n += n;
}

static void add_lapic(struct body *m, u8 uid, u8 id, u32 flags)
{
	struct acpi_madt_lapic e = { { MADT_LAPIC, 8 }, uid, id, flags };

	add_raw(m, &e, sizeof(e));
}

static void add_x2apic(struct body *m, u32 id, u32 uid, u32 flags)
{
	struct acpi_madt_x2apic e = { { MADT_X2APIC, 16 }, 0, id, flags, uid };

	add_raw(m, &e, sizeof(e));
}

static void add_ioapic(struct body *m, u8 id, u32 addr, u32 gsi)
{
	struct acpi_madt_ioapic e = { { MADT_IOAPIC, 12 }, id, 0, addr, gsi };

	add_raw(m, &e, sizeof(e));
}

static void add_override(struct body *m, u64 addr)
{
	struct acpi_madt_lapic_override e = { { MADT_LAPIC_OVERRIDE, 12 },
					      0,
					      addr };

	add_raw(m, &e, sizeof(e));
}

static struct acpi_header *mk_madt(const struct body *m, u8 rev)
{
	return mk_table("APIC", rev, m->b, m->n);
}

static struct acpi_header *mk_spcr(u8 type, u8 space, u64 addr, u8 baud)
{
	struct acpi_spcr s;

	memset(&s, 0, sizeof(s));
	s.interface_type = type;
	s.base.space_id = space;
	s.base.bit_width = 8;
	s.base.access_size = 1;
	s.base.address = addr;
	s.baud = baud;
	return mk_table("SPCR", 2, (u8 *)&s + ACPI_HEADER_LEN,
			ACPI_SPCR_LEN - ACPI_HEADER_LEN);
}

/* ---- alloc() doubles ---- */

static int alloc_calls;
static size_t alloc_bytes;
static void *alloc_ptr;

static void *test_alloc(size_t bytes)
{
	alloc_calls++;
	alloc_bytes = bytes;
	free(alloc_ptr);
	/* Poisoned: the parser must initialize every field itself. */
	alloc_ptr = malloc(bytes ? bytes : 1);
	memset(alloc_ptr, 0xa5, bytes);
	return alloc_ptr;
}

static void *null_alloc(size_t bytes)
{
	(void)bytes;
	alloc_calls++;
	return NULL;
}

static int setup(void **s)
{
	(void)s;
	fake_console_clear();
	alloc_calls = 0;
	alloc_bytes = 0;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	while (nmaps) {
		nmaps--;
		munmap(maps[nmaps].base, maps[nmaps].size);
	}
	free(alloc_ptr);
	alloc_ptr = NULL;
	return 0;
}

/* A working machine: XSDT -> {FACP, MADT, SPCR}. */
static struct acpi_rsdp *mk_machine(const struct body *m, u8 madt_rev,
				    struct acpi_header *spcr)
{
	u32 facp_body[4] = { 0 };
	void *t[3];
	int n = 0;

	t[n++] = mk_table("FACP", 6, facp_body, sizeof(facp_body));
	t[n++] = mk_madt(m, madt_rev);
	if (spcr)
		t[n++] = spcr;
	return mk_rsdp(2, NULL, mk_xsdt(t, n));
}

static int parse(struct acpi_rsdp *r, struct acpi_info *a)
{
	return acpi_parse(hpa(pa_of(r)), a, test_alloc);
}

static void one_cpu(struct body *m)
{
	madt_begin(m, 0xfee00000, 0);
	add_lapic(m, 0, 0, MADT_CPU_ENABLED);
}

/* ---- tests ---- */

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
	teardown(NULL);

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
	teardown(NULL);

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
		teardown(NULL);
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
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
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
		T(test_madt_header_errors),
		T(test_madt_entry_length_0_and_1),
		T(test_madt_entry_past_end),
		T(test_truncated_x2apic),
		T(test_madt_no_usable_cpu),
		T(test_ioapic_limit),
		T(test_spcr_present),
		T(test_spcr_broken),
		T(test_spcr_absent),
	};

	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
