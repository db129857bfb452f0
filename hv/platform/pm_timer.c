// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/pm_timer.c - the ACPI power-management timer (ACPI 6.5
 * 4.8.3.3): a free-running 32-bit counter at 3.579545 MHz (FADT flag
 * TMR_VAL_EXT), derived from the TSC and its calibrated rate. */
#include "arch/cpu.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

u32 pm_timer_ticks(u64 tsc_delta, u64 tsc_khz)
{
	u64 ms, rem;

	if (!tsc_khz)
		return 0;
	/* Split so nothing overflows: whole ms, then the rest. */
	ms = tsc_delta / tsc_khz;
	rem = tsc_delta % tsc_khz;
	return (u32)(ms * ACPI_PM_TIMER_HZ / 1000 +
		     rem * ACPI_PM_TIMER_HZ / (tsc_khz * 1000));
}

u32 pm_timer_in(struct vcpu *v, u16 port, unsigned size)
{
	const struct platform *p = vcpu_platform(v);
	u32 t = pm_timer_ticks(rdtsc() - p->pm_tsc0, p->tsc_khz);

	/* Narrower reads see the bytes at their offset in the register. */
	t >>= 8 * port;
	return size < 4 ? t & ((1u << (8 * size)) - 1) : t;
}
