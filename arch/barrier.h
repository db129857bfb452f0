/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/barrier.h - a reusable sense-reversing (generation) barrier for a
 * fixed number of CPUs, with an optional timeout that aborts it for all.
 *
 * The count, the generation ("sense") and an abort bit share one 64-bit
 * word changed only by compare-and-swap, so "the last CPU arrived" and "a
 * waiter gave up" can never both win: either every CPU passes or none does.
 * An aborted barrier stays aborted (use a fresh one per rendezvous). */
#ifndef MINHV_ARCH_BARRIER_H
#define MINHV_ARCH_BARRIER_H

#include "arch/types.h"

struct barrier {
	u32 n; /* CPUs that must arrive */
	u64 word; /* bits 31:0 count, 62:32 generation, 63 aborted */
};

void barrier_init(struct barrier *b, u32 n);
/* Wait until all n CPUs arrived. timeout_cycles (TSC) 0 = wait forever.
 * Returns 0 when the barrier opened, -ETIMEDOUT when it was aborted (this
 * CPU's timeout expired, or another CPU's did, before the last one
 * arrived). */
int barrier_wait(struct barrier *b, u64 timeout_cycles);

#endif
