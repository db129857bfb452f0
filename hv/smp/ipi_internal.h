/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/ipi_internal.h - setting up the IPI layer (per-CPU state, vectors,
 * broadcast, the stop NMI), for hv/smp only; the raw IPIs themselves are
 * hv/smp/ipi_raw.h. */
#ifndef MINHV_HV_SMP_IPI_INTERNAL_H
#define MINHV_HV_SMP_IPI_INTERNAL_H

#include "arch/types.h"
#include "hv/smp/ipi_raw.h"

struct percpu;

/* Allocate pc->smp (boot CPU, for every CPU, before bring-up). */
bool ipi_cpu_alloc(struct percpu *pc);
/* Register the IPI vectors and the NMI handler (boot CPU, once). */
void ipi_init(void);
/* Use the all-but-self shorthand for "every other CPU" only when every CPU
 * present in the machine is online (a CPU left out must not get IPIs). */
void ipi_set_broadcast_ok(bool ok);
/* g_stop_others: NMI every other CPU into cpu_dead(). */
void ipi_stop_others(void);

#endif
