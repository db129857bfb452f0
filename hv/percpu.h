/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/percpu.h - per-CPU state, reached through GS base (gs:0 holds a pointer
 * to the structure itself). One per CPU that the MADT lists and that came up. */
#ifndef MINHV_HV_PERCPU_H
#define MINHV_HV_PERCPU_H

#include "arch/types.h"

#define STACK_PAGES 8 /* 32 KiB hypervisor stack per CPU */
#define IST_PAGES 2 /* per IST stack (NMI, #DF, #MC) */

/* Each module's per-CPU state, defined by the module that owns it. */
struct tss64; /* arch/gdt.c */
struct svm_cpu; /* hv/svm/svm.h */
struct smp_cpu; /* hv/smp/ipi_raw.h */
struct park_cpu; /* hv/park/internal.h */

struct percpu {
	struct percpu *self; /* must stay first: this_cpu() reads gs:0 */
	u32 cpu; /* dense index, 0 = boot CPU */
	u32 apic_id;
	u64 stack_top;
	u64 ist_top[3]; /* NMI, #DF, #MC */
	struct tss64 *tss; /* this CPU's TSS */
	volatile u32 online; /* set by the CPU itself when it checked in */
	volatile u32 boot_stage; /* hv/smp: AP_STAGE_* (arch/trampoline.h) */
	/* Per-module state hangs off these pointers, owned by that module. */
	struct svm_cpu *svm; /* hv/svm: host save area, current vCPU, ... */
	struct smp_cpu *smp; /* hv/smp: IPI call queue, ... */
	struct park_cpu *park; /* hv/park */
	u64 spec_ctrl_base;
	u64 spec_last_guest; /* serial of the last guest run here (IBPB) */
};

extern struct percpu **g_percpu; /* [g_ncpus] */
extern u32 g_ncpus; /* CPUs known (MADT, usable) */

struct percpu *this_cpu(void);
void percpu_install(struct percpu *pc); /* writes GS base */
/* Build and load this CPU's GDT and TSS (arch/gdt.h) in a page of its own,
 * IST stacks from pc->ist_top; sets pc->tss. On the CPU itself. */
void percpu_gdt_init(struct percpu *pc);

#endif
