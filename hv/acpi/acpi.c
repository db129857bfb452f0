// SPDX-License-Identifier: GPL-2.0-only
/* hv/acpi/acpi.c - find the MADT, SPCR, FADT and HPET tables: validate the
 * RSDP, walk the XSDT (or the RSDT for ACPI 1.0 firmware) and check each
 * table's header. */
#include "hv/acpi/internal.h"
#include "lib/checksum.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "hv/log.h"

/* Firmware bytes as a printable 4-character signature. */
static void sig_str(char out[5], const char *sig)
{
	for (int i = 0; i < 4; i++)
		out[i] = sig[i] >= 0x20 && sig[i] < 0x7f ? sig[i] : '?';
	out[4] = 0;
}

/* ACPI 6.5 5.2.6: a table is its signature, a length that covers at least
 * the header, and a checksum that makes all length bytes sum to zero.
 * Writes why it is not valid into why[n]. */
static bool table_valid(hpa_t pa, const char *sig, char *why, size_t n)
{
	const struct acpi_header *h = hpa_to_ptr(pa);
	char s[5];
	u8 sum;

	if (!pa.v) {
		fmt_snprintf(why, n, "address is 0");
		return false;
	}
	if (memcmp(h->signature, sig, 4)) {
		sig_str(s, h->signature);
		fmt_snprintf(why, n, "signature is '%s'", s);
		return false;
	}
	if (h->length < ACPI_HEADER_LEN) {
		fmt_snprintf(why, n, "length %u is below the %u-byte header",
			     h->length, ACPI_HEADER_LEN);
		return false;
	}
	sum = checksum8(h, h->length);
	if (sum) {
		fmt_snprintf(why, n, "bad checksum (%u bytes sum to %#x)",
			     h->length, sum);
		return false;
	}
	return true;
}

/* ACPI 6.5 5.2.5.3: "RSD PTR ", the first 20 bytes sum to zero, and from
 * revision 2 on all 36 bytes too (extended checksum). */
static int rsdp_check(hpa_t pa, const struct acpi_rsdp *r)
{
	if (!pa.v || memcmp(r->signature, "RSD PTR ", 8)) {
		pr_err("acpi: RSDP at %#llx: signature is not 'RSD PTR '\n",
		       (unsigned long long)pa.v);
		return ACPI_EBADRSDP;
	}
	if (checksum8(r, ACPI_RSDP_V1_LEN)) {
		pr_err("acpi: RSDP at %#llx: bad checksum over the first %u bytes\n",
		       (unsigned long long)pa.v, ACPI_RSDP_V1_LEN);
		return ACPI_EBADRSDP;
	}
	if (r->revision >= 2 && checksum8(r, ACPI_RSDP_V2_LEN)) {
		pr_err("acpi: RSDP at %#llx: bad extended checksum over %u bytes (revision %u)\n",
		       (unsigned long long)pa.v, ACPI_RSDP_V2_LEN, r->revision);
		return ACPI_EBADRSDP;
	}
	return 0;
}

/* Entry i of the XSDT (8-byte entries) or RSDT (4-byte entries). The
 * XSDT's 64-bit entries sit at offset 36, so they are read unaligned. */
static hpa_t root_entry(const struct acpi_header *root, bool xsdt, u32 i)
{
	const u8 *p = (const u8 *)root + ACPI_HEADER_LEN;
	u64 v64;
	u32 v32;

	if (xsdt) {
		memcpy(&v64, p + (size_t)i * 8, 8);
		return hpa(v64);
	}
	memcpy(&v32, p + (size_t)i * 4, 4);
	return hpa(v32);
}

/* The first table with signature sig listed in the root table, or 0. */
static hpa_t root_find(const struct acpi_header *root, bool xsdt,
		       const char *sig)
{
	u32 n = (root->length - ACPI_HEADER_LEN) / (xsdt ? 8 : 4);

	for (u32 i = 0; i < n; i++) {
		hpa_t pa = root_entry(root, xsdt, i);
		const struct acpi_header *h = hpa_to_ptr(pa);

		if (pa.v && !memcmp(h->signature, sig, 4))
			return pa;
	}
	return hpa(0);
}

/* A table listed in the root table that minhv may do without: NULL
 * when absent, or after a pr_warn line when it is not valid. */
static const void *optional_table(const struct acpi_header *root, bool xsdt,
				  const char *sig)
{
	hpa_t pa = root_find(root, xsdt, sig);
	char why[96];

	if (!pa.v)
		return NULL;
	if (!table_valid(pa, sig, why, sizeof(why))) {
		pr_warn("acpi: %s at %#llx: %s; ignoring it\n", sig,
			(unsigned long long)pa.v, why);
		return NULL;
	}
	return hpa_to_ptr(pa);
}

static void spcr_find(const struct acpi_header *root, bool xsdt,
		      struct spcr_info *out)
{
	const struct acpi_spcr *spcr = optional_table(root, xsdt, "SPCR");

	if (spcr)
		acpi_spcr_parse(spcr, out);
}

int acpi_parse(hpa_t rsdp, struct acpi_info *out, void *(*alloc)(size_t bytes))
{
	const struct acpi_rsdp *r = hpa_to_ptr(rsdp);
	const struct acpi_header *root;
	const char *root_name;
	hpa_t root_pa, madt;
	char why[96];
	int rc;

	memset(out, 0, sizeof(*out));
	rc = rsdp_check(rsdp, r);
	if (rc)
		return rc;
	out->rsdp_revision = r->revision;
	/* 5.2.5.3: from revision 2 on the XSDT supersedes the RSDT; take the
	 * RSDT only from ACPI 1.0 firmware or when the XSDT address is 0. */
	out->used_xsdt = r->revision >= 2 && r->xsdt_address;
	root_pa = out->used_xsdt ? hpa(r->xsdt_address) : hpa(r->rsdt_address);
	root_name = out->used_xsdt ? "XSDT" : "RSDT";
	if (!table_valid(root_pa, root_name, why, sizeof(why))) {
		pr_err("acpi: %s at %#llx (RSDP revision %u): %s\n", root_name,
		       (unsigned long long)root_pa.v, r->revision, why);
		return ACPI_EBADROOT;
	}
	root = hpa_to_ptr(root_pa);

	madt = root_find(root, out->used_xsdt, "APIC");
	if (!madt.v) {
		pr_err("acpi: no MADT (signature 'APIC') in the %s at %#llx\n",
		       root_name, (unsigned long long)root_pa.v);
		return ACPI_ENOMADT;
	}
	if (!table_valid(madt, "APIC", why, sizeof(why))) {
		pr_err("acpi: MADT at %#llx: %s\n", (unsigned long long)madt.v,
		       why);
		return ACPI_EBADMADT;
	}
	rc = acpi_madt_parse(hpa_to_ptr(madt), out, alloc);
	if (rc)
		return rc;
	spcr_find(root, out->used_xsdt, &out->spcr);
	acpi_timers_parse(optional_table(root, out->used_xsdt, "FACP"),
			  optional_table(root, out->used_xsdt, "HPET"),
			  &out->timers);
	return 0;
}

u32 acpi_usable_cpus(const struct acpi_info *a)
{
	u32 n = 0;

	for (u32 i = 0; i < a->ncpus; i++)
		n += a->cpus[i].enabled;
	return n;
}
