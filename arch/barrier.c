// SPDX-License-Identifier: GPL-2.0-only
/* arch/barrier.c - sense-reversing barrier with an all-or-nothing abort. */
#include "arch/barrier.h"
#include "arch/cpu.h"
#include "arch/errno.h"

#define BAR_ABORT BIT(63)
#define BAR_COUNT(w) ((u32)(w))
#define BAR_GEN(w) (((w) >> 32) & 0x7fffffffULL)

void barrier_init(struct barrier *b, u32 n)
{
	b->n = n;
	__atomic_store_n(&b->word, 0, __ATOMIC_RELEASE);
}

int barrier_wait(struct barrier *b, u64 timeout_cycles)
{
	u64 w = __atomic_load_n(&b->word, __ATOMIC_ACQUIRE);
	u64 nw, gen, start;

	do {
		if (w & BAR_ABORT)
			return -ETIMEDOUT;
		gen = BAR_GEN(w);
		/* The last arrival resets the count and flips the sense. */
		if (BAR_COUNT(w) + 1 >= b->n)
			nw = ((gen + 1) & 0x7fffffffULL) << 32;
		else
			nw = w + 1;
	} while (!__atomic_compare_exchange_n(
		&b->word, &w, nw, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	if (BAR_GEN(nw) != gen)
		return 0;

	start = rdtsc();
	for (;;) {
		w = __atomic_load_n(&b->word, __ATOMIC_ACQUIRE);
		if (BAR_GEN(w) != gen)
			return 0;
		if (w & BAR_ABORT)
			return -ETIMEDOUT;
		if (timeout_cycles && rdtsc() - start > timeout_cycles) {
			/* Fails if the last CPU arrived meanwhile: re-check. */
			if (__atomic_compare_exchange_n(
				    &b->word, &w, w | BAR_ABORT, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				return -ETIMEDOUT;
			continue;
		}
		cpu_relax();
	}
}
