/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/atomic.h - spinlock and atomic counters for the test guest, on gcc
 * __atomic builtins. The lock spins with PAUSE (the pause scenario relies
 * on it); spin_lock_nopause() spins with plain loads. */
#ifndef MINHV_GUEST_ATOMIC_H
#define MINHV_GUEST_ATOMIC_H

#include "guest/x86.h"

typedef struct {
	volatile u32 v;
} spinlock_t;

static inline void spin_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			cpu_relax();
}

static inline void spin_lock_nopause(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->v, __ATOMIC_RELAXED))
			;
}

static inline bool spin_trylock(spinlock_t *l)
{
	return !__atomic_exchange_n(&l->v, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->v, 0, __ATOMIC_RELEASE);
}

/* Type-generic, for any integer the size of a register or less. */
#define atomic_inc(p) __atomic_add_fetch((p), 1, __ATOMIC_SEQ_CST)
#define atomic_read(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define atomic_set(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

#endif
