/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/spinlock.h - a test-and-test-and-set spinlock and a sense-reversing
 * barrier, on gcc __atomic builtins (work both freestanding and on the host). */
#ifndef MINHV_ARCH_SPINLOCK_H
#define MINHV_ARCH_SPINLOCK_H

#include "arch/cpu.h"

typedef struct {
	volatile u32 v;
} spinlock_t;

static inline void spin_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			cpu_relax();
}

static inline bool spin_trylock(spinlock_t *l)
{
	return !__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

#endif
