/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/acpi_fixture.h - ACPI table builders and alloc() doubles
 * shared by the ACPI parser tests. */
#ifndef MINHV_TESTS_UNIT_ACPI_FIXTURE_H
#define MINHV_TESTS_UNIT_ACPI_FIXTURE_H

#include "hv/acpi/acpi.h"
#include "hv/acpi/tables.h"

struct body {
	u8 b[8192];
	size_t n;
};

extern int alloc_calls;
extern size_t alloc_bytes;
extern void *alloc_ptr;

void *guarded(size_t len);
void fix_checksum(struct acpi_header *h);
struct acpi_header *mk_table(const char *sig, u8 rev, const void *body,
			     size_t body_len);
u64 pa_of(const void *p);
struct acpi_header *mk_xsdt(void *const *tables, int n);
struct acpi_header *mk_rsdt(void *const *tables, int n);
struct acpi_rsdp *mk_rsdp(u8 rev, void *rsdt, void *xsdt);
void madt_begin(struct body *m, u32 lapic_addr, u32 flags);
void add_raw(struct body *m, const void *e, size_t n);
void add_lapic(struct body *m, u8 uid, u8 id, u32 flags);
void add_x2apic(struct body *m, u32 id, u32 uid, u32 flags);
void add_ioapic(struct body *m, u8 id, u32 addr, u32 gsi);
void add_override(struct body *m, u64 addr);
struct acpi_header *mk_madt(const struct body *m, u8 rev);
struct acpi_header *mk_spcr(u8 type, u8 space, u64 addr, u8 baud);
void *test_alloc(size_t bytes);
void *null_alloc(size_t bytes);
int acpi_fx_setup(void **s);
int acpi_fx_teardown(void **s);
struct acpi_rsdp *mk_machine(const struct body *m, u8 madt_rev,
			     struct acpi_header *spcr);
int parse(struct acpi_rsdp *r, struct acpi_info *a);
void one_cpu(struct body *m);

#endif
