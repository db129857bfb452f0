/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/fake_smp_pthread.h - hv/smp/ipi.h for unit tests: every fake
 * CPU that a cross-CPU call reaches runs it on its own pthread (which
 * first selects that fake CPU), so rendezvous code really runs in parallel
 * against the per-CPU state of tests/doubles/fake_cpu. */
#ifndef MINHV_TESTS_DOUBLES_FAKE_SMP_PTHREAD_H
#define MINHV_TESTS_DOUBLES_FAKE_SMP_PTHREAD_H

#include "arch/types.h"

/* CPUs 0..n-1 are online (n <= FAKE_NCPUS). Also clears absent CPUs. */
void fake_smp_set_online(u32 n);
/* Count this CPU as online, but never run calls on it (a CPU that hangs
 * with interrupts off, or missed the IPI). */
void fake_smp_set_absent(u32 cpu, bool absent);
/* Calls made through ipi_call_all()/ipi_call_on() since set_online. */
u32 fake_smp_calls(void);

#endif
