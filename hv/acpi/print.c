// SPDX-License-Identifier: GPL-2.0-only
/* hv/acpi/print.c - the ACPI inventory on the console (CPUs, I/O APICs, the
 * SPCR console, the reference clocks). APIC IDs are shown
 * as ranges ("0-254 256-287") so that hundreds of CPUs stay readable. */
#include "hv/acpi/acpi.h"
#include "lib/fmt.h"
#include "hv/log.h"

#define ID_LINE_WIDTH 72

enum cpu_class { CLS_ENABLED, CLS_X2APIC, CLS_ONLINE_CAPABLE, CLS_ABSENT };

static bool in_class(const struct madt_cpu *c, enum cpu_class cls)
{
	switch (cls) {
	case CLS_ENABLED:
		return c->enabled;
	case CLS_X2APIC:
		return c->x2apic_entry;
	case CLS_ONLINE_CAPABLE:
		return c->online_capable;
	default:
		return !c->enabled && !c->online_capable;
	}
}

struct id_line {
	const char *title;
	char buf[ID_LINE_WIDTH + 24];
	int n;
};

static void line_flush(struct id_line *l)
{
	if (l->n)
		pr_info("acpi: %s:%s\n", l->title, l->buf);
	l->n = 0;
	l->buf[0] = 0;
}

static void line_add_run(struct id_line *l, u32 first, u32 last)
{
	char run[24];

	if (first == last)
		fmt_snprintf(run, sizeof(run), " %u", first);
	else
		fmt_snprintf(run, sizeof(run), " %u-%u", first, last);
	if (l->n > ID_LINE_WIDTH)
		line_flush(l);
	l->n += fmt_snprintf(l->buf + l->n, sizeof(l->buf) - (size_t)l->n, "%s",
			     run);
}

/* Runs of consecutive IDs, in MADT order, of the CPUs in cls. */
static void print_ids(const struct acpi_info *a, enum cpu_class cls,
		      const char *title)
{
	struct id_line l = { .title = title };
	u32 first = 0, last = 0;
	bool open = false;

	for (u32 i = 0; i < a->ncpus; i++) {
		u32 id = a->cpus[i].apic_id;

		if (!in_class(&a->cpus[i], cls))
			continue;
		if (open && id == last + 1 && last != 0xffffffff) {
			last = id;
			continue;
		}
		if (open)
			line_add_run(&l, first, last);
		first = last = id;
		open = true;
	}
	if (open)
		line_add_run(&l, first, last);
	line_flush(&l);
}

static u32 count(const struct acpi_info *a, enum cpu_class cls)
{
	u32 n = 0;

	for (u32 i = 0; i < a->ncpus; i++)
		n += in_class(&a->cpus[i], cls);
	return n;
}

static void print_spcr(const struct spcr_info *s)
{
	if (!s->present) {
		pr_info("acpi: no usable SPCR\n");
		return;
	}
	pr_info("acpi: SPCR console: interface type %#x at %s %#llx, width %u, access size %u\n",
		s->interface_type, s->space_id == 1 ? "I/O" : "MMIO",
		(unsigned long long)s->address, s->bit_width, s->access_size);
	if (s->baud)
		pr_info("acpi: SPCR console: %u baud\n", s->baud);
	else
		pr_info("acpi: SPCR console: baud rate as firmware set it\n");
}

/* Port or address 0: none (or none usable). */
static void print_timers(const struct acpi_timers *t)
{
	pr_info("acpi: PM timer at I/O port %#x (%u-bit); HPET at %#llx\n",
		t->pm_tmr_port, t->pm_tmr_32 ? 32 : 24,
		(unsigned long long)t->hpet_addr);
}

void acpi_print_inventory(const struct acpi_info *a)
{
	pr_info("acpi: RSDP revision %u, %s; local APIC at %#llx%s\n",
		a->rsdp_revision, a->used_xsdt ? "XSDT" : "RSDT",
		(unsigned long long)a->lapic_addr,
		a->pcat_compat ? "; PC-AT compatible 8259s" : "");
	pr_info("acpi: %u processor entries: %u enabled, %u online-capable, %u absent, %u x2APIC entries; %u duplicates dropped\n",
		a->ncpus, count(a, CLS_ENABLED), count(a, CLS_ONLINE_CAPABLE),
		count(a, CLS_ABSENT), count(a, CLS_X2APIC), a->duplicates);
	print_ids(a, CLS_ENABLED, "enabled APIC IDs");
	print_ids(a, CLS_X2APIC, "x2APIC entries");
	print_ids(a, CLS_ONLINE_CAPABLE, "online-capable APIC IDs");
	print_ids(a, CLS_ABSENT, "absent APIC IDs");
	for (u32 i = 0; i < a->nioapic; i++)
		pr_info("acpi: I/O APIC ID %u at %#x, GSI base %u\n",
			a->ioapic[i].id, a->ioapic[i].addr,
			a->ioapic[i].gsi_base);
	print_spcr(&a->spcr);
	print_timers(&a->timers);
}
