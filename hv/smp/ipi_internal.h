/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/ipi_internal.h - per-CPU IPI state (hangs off struct percpu.smp) and
 * the raw IPI primitives, shared by hv/ipi*.c and hv/smp*.c only. */
#ifndef MINHV_HV_IPI_INTERNAL_H
#define MINHV_HV_IPI_INTERNAL_H

#include "arch/types.h"
#include "hv/smp/ipi.h"
#include "arch/spinlock.h"

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
