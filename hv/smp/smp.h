/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/smp.h - bringing up the other CPUs (boot CPU, once) and what came of
 * it. The IPI and cross-call API for everyone else is hv/smp/ipi.h. */
#ifndef MINHV_HV_SMP_SMP_H
#define MINHV_HV_SMP_SMP_H

#include "arch/types.h"
#include "hv/smp/policy.h"

struct acpi_info;
struct options;
struct percpu;

struct smp_result {
	u32 listed; /* usable CPUs in the MADT, boot CPU included */
	u32 qemu_cpus; /* QEMU's -smp (fw_cfg NB_CPUS); 0 = not QEMU */
	u32 planned; /* boot CPU + APs we tried to start */
	u32 online; /* checked in, boot CPU included */
	u32 failed; /* started, never checked in: left out */
	u32 resends; /* SIPIs beyond the first per AP */
	u32 sipis; /* SIPIs sent in all */
	u32 alive; /* APs that reached long mode in the trampoline */
	u64 bringup_cycles;
	u32 init_delay_us;
	enum smp_mode mode;
	enum ipi_fence_opt fence_opt;
	struct fence_decision fence;
};

extern struct smp_result g_smp;

/* SMP settings from the minhv options. */
void smp_opts_from(struct smp_opts *so, const struct options *o);
/* What smp_init() takes from the machine and from the layers above
 * hv/smp, which it does not include: an AP's set-up that belongs to them
 * runs through ap_cpu_init (hv_main passes hv/park's spec_ctrl_cpu_init). */
struct smp_env {
	const struct acpi_info *acpi; /* the MADT's CPUs, the LAPIC base */
	hpa_t trampoline; /* one page below 1 MiB for the AP trampoline */
	u32 qemu_cpus; /* QEMU's CPU count (fw_cfg), 0 when not QEMU */
	void (*ap_cpu_init)(void); /* on each AP before it counts as online */
};

/* Choose the APIC back end and the fence, start every usable AP, report.
 * Afterwards g_percpu[0..g_ncpus-1] are the online CPUs, densely numbered
 * (0 = boot CPU). Needs idt_init() and the boot CPU's percpu installed.
 * The APs then wait for cross-calls in HLT until smp_aps_idle(). */
void smp_init(const struct smp_env *e, const struct smp_opts *o);
/* Hand every AP its idle loop (hv_main: hv/park's park_cpu_loop(), once
 * parking is armed): an AP leaves its bring-up wait for idle, which never
 * returns, the next time it wakes. */
void smp_aps_idle(void (*idle)(void));

/* Entered by each AP from the trampoline, on its own stack, GS = pc. */
_Noreturn void smp_ap_entry(struct percpu *pc);

#endif
