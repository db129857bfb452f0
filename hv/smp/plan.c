// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/plan.c - MADT CPU entries -> bring-up list. ACPI 6.5 5.2.12.2/
 * 5.2.12.12: flags bit 0 Enabled, bit 1 Online Capable (hot-add later). */
#include "hv/smp/plan.h"
#include "arch/apic_icr.h"
#include "hv/acpi/acpi.h"
#include "hv/log.h"

static bool listed(const struct smp_plan *p, u32 id)
{
	for (u32 i = 0; i < p->n; i++)
		if (p->apic_ids[i] == id)
			return true;
	return false;
}

void smp_plan_build(const struct madt_cpu *cpus, u32 ncpus, u32 boot_apic_id,
		    bool x2apic, struct smp_plan *p)
{
	p->n = 0;
	p->disabled = p->absent = p->duplicates = p->too_high = 0;
	p->boot_listed = false;
	p->apic_ids[p->n++] = boot_apic_id;
	for (u32 i = 0; i < ncpus; i++) {
		const struct madt_cpu *c = &cpus[i];

		if (c->apic_id == boot_apic_id) {
			if (p->boot_listed)
				p->duplicates++;
			p->boot_listed = true;
			continue;
		}
		if (!c->enabled) {
			if (c->online_capable)
				p->absent++;
			else
				p->disabled++;
			continue;
		}
		if (listed(p, c->apic_id)) {
			pr_warn("smp: APIC ID %u listed twice in the MADT\n",
				c->apic_id);
			p->duplicates++;
			continue;
		}
		if (!x2apic && c->apic_id > XAPIC_MAX_ID) {
			pr_err("smp: CPU with APIC ID %u needs x2APIC (xAPIC "
			       "IDs are 8 bits); not started\n",
			       c->apic_id);
			p->too_high++;
			continue;
		}
		p->apic_ids[p->n++] = c->apic_id;
	}
	if (!p->boot_listed)
		pr_warn("smp: boot CPU (APIC ID %u) is not in the MADT\n",
			boot_apic_id);
}
