/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/plan.h - which CPUs to start: the MADT CPU list turned into the
 * bring-up list (boot CPU first, then every AP to start, MADT order). */
#ifndef MINHV_HV_SMP_PLAN_H
#define MINHV_HV_SMP_PLAN_H

#include "arch/types.h"

struct madt_cpu;

struct smp_plan {
	u32 *apic_ids; /* caller's array, room for ncpus + 1 entries */
	u32 n; /* apic_ids[0] = boot CPU, [1..n-1] = APs to start */
	u32 disabled; /* enabled flag clear, not online-capable */
	u32 absent; /* online-capable but not present now */
	u32 duplicates; /* same APIC ID listed twice (kept the first) */
	u32 too_high; /* ID > 255 while the APIC runs in xAPIC mode */
	bool boot_listed; /* the boot CPU's own entry was found */
};

/* Build the list. x2apic: whether the APIC runs in x2APIC mode (else IDs
 * above 255 cannot be targeted and are refused, with a pr_err each). */
void smp_plan_build(const struct madt_cpu *cpus, u32 ncpus, u32 boot_apic_id,
		    bool x2apic, struct smp_plan *p);

#endif
