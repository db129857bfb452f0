/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/ipi.h - inter-processor interrupts and the cross-CPU function call.
 * Later subsystems (MTRR rendezvous, parking, RMPOPT) use only this API. */
#ifndef MINHV_HV_SMP_IPI_H
#define MINHV_HV_SMP_IPI_H

#include "arch/types.h"

typedef void (*ipi_fn)(void *arg);

/* Run fn(arg) on CPU `cpu` (dense index). With wait, return only once fn
 * has returned there. Returns 0, or negative if the CPU is not online. */
int ipi_call_on(u32 cpu, ipi_fn fn, void *arg, bool wait);
/* Run fn(arg) on every online CPU (the caller too when include_self, the
 * caller's own call runs last, after the others were started). With wait,
 * return once all have returned. Returns the number of CPUs that ran it. */
int ipi_call_all(ipi_fn fn, void *arg, bool wait, bool include_self);
/* Number of CPUs that are online (checked in). */
u32 ipi_online_count(void);
/* Dense index of the calling CPU. */
u32 ipi_this_cpu(void);
/* An interrupt to this CPU, taken as soon as it enables them. Sent with
 * interrupts off before VMRUN, it makes the guest exit (INTR) right after
 * the event VMRUN injects: injection comes before interrupts are
 * recognised (APM vol 2 15.20). KVM's "immediate exit". */
void ipi_self_kick(void);

#endif
