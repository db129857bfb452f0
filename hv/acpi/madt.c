// SPDX-License-Identifier: GPL-2.0-only
/* hv/acpi/madt.c - decode the MADT's interrupt controller structures
 * (ACPI 6.5 5.2.12): processors, I/O APICs, the local APIC address. */
#include "hv/acpi/internal.h"
#include "lib/string.h"
#include "hv/log.h"

/* Individual duplicate warnings; the rest only show up in the count. */
#define MAX_DUP_WARNINGS 8

/* ACPI 6.5 5.2.12.2/.3/.8/.12: length of each structure minhv reads.
 * Longer entries are accepted (later revisions may append fields). */
static u32 min_len(u8 type)
{
	switch (type) {
	case MADT_LAPIC:
		return sizeof(struct acpi_madt_lapic);
	case MADT_IOAPIC:
		return sizeof(struct acpi_madt_ioapic);
	case MADT_LAPIC_OVERRIDE:
		return sizeof(struct acpi_madt_lapic_override);
	case MADT_X2APIC:
		return sizeof(struct acpi_madt_x2apic);
	default:
		return sizeof(struct acpi_madt_entry);
	}
}

/* Length of the entry at off, or 0 after a pr_err line when it is not
 * whole inside the table. Nothing past the table is read. */
static u32 entry_len(const struct acpi_madt *m, u32 off)
{
	const u8 *t = (const u8 *)m;
	u32 len = m->h.length;
	u32 el, need;
	u8 type;

	if (len - off < sizeof(struct acpi_madt_entry)) {
		pr_err("acpi: MADT at %#llx: entry at offset %u: its 2-byte header runs past the table end (%u bytes)\n",
		       (unsigned long long)ptr_to_hpa(m).v, off, len);
		return 0;
	}
	type = t[off];
	el = t[off + 1];
	need = min_len(type);
	if (el < need) {
		pr_err("acpi: MADT at %#llx: entry at offset %u (type %u): length %u is below %u\n",
		       (unsigned long long)ptr_to_hpa(m).v, off, type, el,
		       need);
		return 0;
	}
	if (el > len - off) {
		pr_err("acpi: MADT at %#llx: entry at offset %u (type %u, length %u) runs past the table end (%u bytes)\n",
		       (unsigned long long)ptr_to_hpa(m).v, off, type, el, len);
		return 0;
	}
	return el;
}

/* First pass: every entry well formed; count the processor entries. */
static int count_cpus(const struct acpi_madt *m, u32 *ncpu)
{
	const u8 *t = (const u8 *)m;
	u32 off, el;

	*ncpu = 0;
	for (off = sizeof(*m); off < m->h.length; off += el) {
		el = entry_len(m, off);
		if (!el)
			return ACPI_EBADMADT;
		if (t[off] == MADT_LAPIC || t[off] == MADT_X2APIC)
			(*ncpu)++;
	}
	return 0;
}

static void add_cpu(const struct acpi_madt *m, struct acpi_info *out, u32 off,
		    u32 apic_id, u32 uid, u32 flags, bool x2)
{
	struct madt_cpu *c;

	for (u32 i = 0; i < out->ncpus; i++) {
		if (out->cpus[i].apic_id != apic_id)
			continue;
		/* Keep the first: later duplicates are firmware noise. */
		if (out->duplicates++ < MAX_DUP_WARNINGS)
			pr_warn("acpi: MADT: APIC ID %u listed again (%s entry at offset %u); keeping the first\n",
				apic_id, x2 ? "x2APIC" : "local APIC", off);
		return;
	}
	c = &out->cpus[out->ncpus++];
	c->apic_id = apic_id;
	c->uid = uid;
	c->x2apic_entry = x2;
	c->enabled = flags & MADT_CPU_ENABLED;
	/* Table 5.23: Online Capable exists from MADT revision 5 and is
	 * meaningful only with Enabled clear. Neither bit: absent CPU. */
	c->online_capable = !c->enabled &&
			    m->h.revision >= MADT_ONLINE_CAPABLE_MIN_REV &&
			    (flags & MADT_CPU_ONLINE_CAPABLE);
}

static void add_ioapic(struct acpi_info *out, const struct acpi_madt_ioapic *e)
{
	struct madt_ioapic *io;

	if (out->nioapic == ACPI_MAX_IOAPIC) {
		pr_warn("acpi: MADT: more than %u I/O APICs; ignoring ID %u\n",
			ACPI_MAX_IOAPIC, e->id);
		return;
	}
	io = &out->ioapic[out->nioapic++];
	io->id = e->id;
	io->addr = e->addr;
	io->gsi_base = e->gsi_base;
}

/* Second pass over entries count_cpus() has already checked. */
static void decode(const struct acpi_madt *m, struct acpi_info *out)
{
	const u8 *t = (const u8 *)m;
	u32 off;

	for (off = sizeof(*m); off < m->h.length; off += t[off + 1]) {
		const void *e = t + off;
		const struct acpi_madt_lapic *la = e;
		const struct acpi_madt_x2apic *x2 = e;
		const struct acpi_madt_lapic_override *ov = e;

		switch (t[off]) {
		case MADT_LAPIC:
			/* 0xff is not an xAPIC ID (broadcast); Linux skips
			 * such entries too. */
			if (la->apic_id == 0xff)
				break;
			add_cpu(m, out, off, la->apic_id, la->uid, la->flags,
				false);
			break;
		case MADT_X2APIC:
			/* 5.2.12.12: IDs below 255 are legal here too. */
			if (x2->x2apic_id == 0xffffffff)
				break;
			add_cpu(m, out, off, x2->x2apic_id, x2->uid, x2->flags,
				true);
			break;
		case MADT_IOAPIC:
			add_ioapic(out, e);
			break;
		case MADT_LAPIC_OVERRIDE:
			/* 5.2.12.8: supersedes the 32-bit field at 36. */
			out->lapic_addr = ov->addr;
			break;
		default:
			break;
		}
	}
}

int acpi_madt_parse(const struct acpi_madt *m, struct acpi_info *out,
		    void *(*alloc)(size_t bytes))
{
	u32 n;
	int rc;

	if (m->h.length < sizeof(*m)) {
		pr_err("acpi: MADT at %#llx: length %u is below %zu\n",
		       (unsigned long long)ptr_to_hpa(m).v, m->h.length,
		       sizeof(*m));
		return ACPI_EBADMADT;
	}
	rc = count_cpus(m, &n);
	if (rc)
		return rc;
	if (!n) {
		pr_err("acpi: MADT at %#llx: no processor entries\n",
		       (unsigned long long)ptr_to_hpa(m).v);
		return ACPI_EBADMADT;
	}
	out->cpus = alloc((size_t)n * sizeof(*out->cpus));
	if (!out->cpus) {
		pr_err("acpi: MADT: no memory for %u processor entries\n", n);
		return ACPI_ENOMEM;
	}
	memset(out->cpus, 0, (size_t)n * sizeof(*out->cpus));
	out->lapic_addr = m->lapic_addr;
	out->pcat_compat = m->flags & ACPI_MADT_PCAT_COMPAT;
	decode(m, out);
	if (!acpi_usable_cpus(out)) {
		pr_err("acpi: MADT at %#llx: none of its %u processor entries is enabled\n",
		       (unsigned long long)ptr_to_hpa(m).v, n);
		return ACPI_EBADMADT;
	}
	return 0;
}
