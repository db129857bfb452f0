// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/acpi_fixture.c - builds ACPI tables for the parser tests in
 * guarded memory below 4 GiB (each table ends right before an unreadable
 * page, so a read past its end crashes the test), plus alloc() doubles. */
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

/* ---- guarded memory below 4 GiB (RSDT entries are 32-bit) ---- */

#define MAX_MAPS 64
static struct {
	void *base;
	size_t size;
} maps[MAX_MAPS];
static int nmaps;

/* len bytes whose last byte sits just before an unreadable page. */
void *guarded(size_t len)
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

void fix_checksum(struct acpi_header *h)
{
	h->checksum = 0;
	h->checksum = (u8)-checksum8(h, h->length);
}

/* A table: header + body, in guarded memory, checksum right. */
struct acpi_header *mk_table(const char *sig, u8 rev, const void *body,
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

u64 pa_of(const void *p)
{
	return (u64)(uintptr_t)p;
}

struct acpi_header *mk_xsdt(void *const *tables, int n)
{
	u64 e[16];

	for (int i = 0; i < n; i++)
		e[i] = pa_of(tables[i]);
	return mk_table("XSDT", 1, e, (size_t)n * 8);
}

struct acpi_header *mk_rsdt(void *const *tables, int n)
{
	u32 e[16];

	for (int i = 0; i < n; i++)
		e[i] = (u32)pa_of(tables[i]);
	return mk_table("RSDT", 1, e, (size_t)n * 4);
}

/* Revision 0: a 20-byte structure, nothing after it may be read. */
struct acpi_rsdp *mk_rsdp(u8 rev, void *rsdt, void *xsdt)
{
	size_t len = rev >= 2 ? ACPI_RSDP_V2_LEN : ACPI_RSDP_V1_LEN;
	struct acpi_rsdp *r = guarded(len);

	memset(r, 0, len);
	memcpy(r->signature, "RSD PTR ", 8);
	memcpy(r->oem_id, "MINHV ", 6);
	r->revision = rev;
	r->rsdt_address = (u32)pa_of(rsdt);
	r->checksum = (u8)-checksum8(r, ACPI_RSDP_V1_LEN);
	if (rev >= 2) {
		r->length = ACPI_RSDP_V2_LEN;
		r->xsdt_address = pa_of(xsdt);
		r->ext_checksum = (u8)-checksum8(r, ACPI_RSDP_V2_LEN);
	}
	return r;
}

/* ---- MADT body builder ---- */

void madt_begin(struct body *m, u32 lapic_addr, u32 flags)
{
	m->n = 0;
	memcpy(m->b, &lapic_addr, 4);
	memcpy(m->b + 4, &flags, 4);
	m->n = 8;
}

void add_raw(struct body *m, const void *e, size_t n)
{
	assert_true(m->n + n <= sizeof(m->b));
	memcpy(m->b + m->n, e, n);
	m->n += n;
}

void add_lapic(struct body *m, u8 uid, u8 id, u32 flags)
{
	struct acpi_madt_lapic e = { { MADT_LAPIC, 8 }, uid, id, flags };

	add_raw(m, &e, sizeof(e));
}

void add_x2apic(struct body *m, u32 id, u32 uid, u32 flags)
{
	struct acpi_madt_x2apic e = { { MADT_X2APIC, 16 }, 0, id, flags, uid };

	add_raw(m, &e, sizeof(e));
}

void add_ioapic(struct body *m, u8 id, u32 addr, u32 gsi)
{
	struct acpi_madt_ioapic e = { { MADT_IOAPIC, 12 }, id, 0, addr, gsi };

	add_raw(m, &e, sizeof(e));
}

void add_override(struct body *m, u64 addr)
{
	struct acpi_madt_lapic_override e = { { MADT_LAPIC_OVERRIDE, 12 },
					      0,
					      addr };

	add_raw(m, &e, sizeof(e));
}

struct acpi_header *mk_madt(const struct body *m, u8 rev)
{
	return mk_table("APIC", rev, m->b, m->n);
}

struct acpi_header *mk_spcr(u8 type, u8 space, u64 addr, u8 baud)
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

int alloc_calls;
size_t alloc_bytes;
void *alloc_ptr;

void *test_alloc(size_t bytes)
{
	alloc_calls++;
	alloc_bytes = bytes;
	free(alloc_ptr);
	/* Poisoned: the parser must initialize every field itself. */
	alloc_ptr = malloc(bytes ? bytes : 1);
	memset(alloc_ptr, 0xa5, bytes);
	return alloc_ptr;
}

void *null_alloc(size_t bytes)
{
	(void)bytes;
	alloc_calls++;
	return NULL;
}

int acpi_fx_setup(void **s)
{
	(void)s;
	fake_console_clear();
	alloc_calls = 0;
	alloc_bytes = 0;
	return 0;
}

int acpi_fx_teardown(void **s)
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
struct acpi_rsdp *mk_machine(const struct body *m, u8 madt_rev,
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

int parse(struct acpi_rsdp *r, struct acpi_info *a)
{
	return acpi_parse(hpa(pa_of(r)), a, test_alloc);
}

void one_cpu(struct body *m)
{
	madt_begin(m, 0xfee00000, 0);
	add_lapic(m, 0, 0, MADT_CPU_ENABLED);
}
