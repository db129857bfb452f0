// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/pm_timer.c - the ACPI power-management timer (ACPI 6.5
 * 4.8.3.3): a free-running 32-bit counter at 3.579545 MHz (FADT flag
 * TMR_VAL_EXT), derived from the TSC and its calibrated rate. */
#include "arch/cpu.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

u64 pm_timer_mult(u64 tsc_khz)
{
	u64 f = tsc_khz * 1000, r = ACPI_PM_TIMER_HZ, q = 0;

	if (!tsc_khz || f <= ACPI_PM_TIMER_HZ || tsc_khz > (1ULL << 40))
		return 0;
	/* 2^64 * HZ / f, a bit at a time (no 128-bit division without
	 * libgcc): r < f < 2^50 never overflows the shift. */
	for (int i = 0; i < 64; i++) {
		q <<= 1;
		r <<= 1;
		if (r >= f) {
			r -= f;
			q |= 1;
		}
	}
	/* Rounded up: a whole number of ticks (2 s at 2 GHz is exactly
	 * ACPI_PM_TIMER_HZ * 2) must not come out one short. */
	return q + (r != 0);
}

/* ticks = tsc_delta * HZ / f: the high half of a 64 x 64 multiply. */
static u32 ticks_at(u64 tsc_delta, u64 mult)
{
	return (u32)(((unsigned __int128)tsc_delta * mult) >> 64);
}

u32 pm_timer_ticks(u64 tsc_delta, u64 tsc_khz)
{
	return ticks_at(tsc_delta, pm_timer_mult(tsc_khz));
}

u32 pm_timer_in(struct vcpu *v, u16 port, unsigned size)
{
	return pm_timer_read(vcpu_platform(v), port, size);
}

u32 pm_timer_read(struct platform *p, u16 port, unsigned size)
{
	u64 mult = __atomic_load_n(&p->pm_mult, __ATOMIC_RELAXED);
	u32 t;

	/* Computed at the first read (vCPUs racing here store the same
	 * value); a platform is set up in several places, each with its
	 * tsc_khz, and this keeps them free of it. */
	if (__builtin_expect(!mult, 0)) {
		mult = pm_timer_mult(p->tsc_khz);
		__atomic_store_n(&p->pm_mult, mult, __ATOMIC_RELAXED);
	}
	t = ticks_at(rdtsc() - p->pm_tsc0, mult);

	/* Narrower reads see the bytes at their offset in the register. */
	t >>= 8 * port;
	return size < 4 ? t & ((1u << (8 * size)) - 1) : t;
}
