// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/apic_cal.c - LAPIC timer calibration arithmetic (SDM vol 3
 * 11.5.4: the timer counts the bus clock / divide); the measurement itself
 * is in hv/svm/vcpu_watchdog.c, its only user. */
#include "hv/smp/apic_cal.h"

u64 g_apic_timer_khz;

u64 apic_khz_from(u64 apic_ticks, u64 tsc_cycles, u64 tsc_khz)
{
	if (!tsc_cycles || !tsc_khz)
		return 0;
	/* ticks / (cycles / tsc_khz) ms. The product fits 64 bits for a
	 * 32-bit count and any TSC below 4 THz (no libgcc for 128-bit). */
	if (apic_ticks > 0xffffffffULL || tsc_khz > 0xffffffffULL)
		return 0;
	return apic_ticks * tsc_khz / tsc_cycles;
}

u32 apic_ticks_for_ms(u64 apic_khz, u32 ms)
{
	if (!apic_khz)
		return 0;
	if (!ms)
		return 1;
	if (apic_khz > 0xffffffffULL / ms)
		return 0xffffffffu;
	return (u32)(apic_khz * ms);
}

u32 apic_recheck_count(u32 tick_count)
{
	u32 c = tick_count / 100;

	return c > APIC_RECHECK_MIN ? c : APIC_RECHECK_MIN;
}
