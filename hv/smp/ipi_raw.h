/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/ipi_raw.h - the layer under hv/smp/ipi.h: IPIs by vector, the
 * per-CPU cross-call queue and its counters (struct smp_cpu, hung off
 * struct percpu.smp). For hv/smp, and for the SMP self-tests and the IPI
 * benchmark (hv/selftest), which measure this layer itself; everyone else
 * uses hv/smp/ipi.h. */
#ifndef MINHV_HV_SMP_IPI_RAW_H
#define MINHV_HV_SMP_IPI_RAW_H

#include "arch/spinlock.h"
#include "arch/types.h"
#include "hv/smp/ipi.h"

#define CALLQ_SLOTS 32 /* per target CPU; senders wait (and serve) if full */

struct call_slot {
	ipi_fn fn;
	void *arg;
	u32 *pending; /* decremented after fn returns; NULL: no wait */
};

struct smp_cpu {
	spinlock_t lock;
	u32 head, tail; /* ring: head = next to run, tail = next free */
	struct call_slot q[CALLQ_SLOTS];
	u32 nmi_sent; /* NMIs other CPUs sent here through ipi_nmi() */
	u32 nmi_seen;
	u64 test_ipis; /* VEC_IPI_TEST interrupts taken */
	u64 calls_run;
};

/* Raw IPIs by dense CPU index. Return 0 or a negative APIC error. */
int ipi_send(u32 cpu, u8 vector);
int ipi_broadcast(u8 vector); /* all but self */
int ipi_nmi(u32 cpu);
void ipi_self(u8 vector);

/* Queue fn(arg) on cpu without sending the IPI; waits (serving this CPU's
 * own queue) while the target's ring is full. */
void ipi_call_enqueue(u32 cpu, ipi_fn fn, void *arg, u32 *pending);
/* Run every call queued for this CPU; returns how many ran. */
u32 ipi_call_poll(void);
/* Spin until *pending is 0, serving this CPU's own queue meanwhile. */
void ipi_call_wait(u32 *pending);

#endif
