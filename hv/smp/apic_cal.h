/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/apic_cal.h - the LAPIC timer's rate, measured against the TSC
 * (the APIC timer clock is the bus/core crystal clock, model specific, SDM
 * vol 3 11.5.4; QEMU emulates 1 GHz): pure arithmetic for the calibration
 * and for turning milliseconds into a timer count. */
#ifndef MINHV_HV_SMP_APIC_CAL_H
#define MINHV_HV_SMP_APIC_CAL_H

#include "arch/types.h"

/* LAPIC timer ticks per ms (divide by 1) measured at boot; 0 before. */
extern u64 g_apic_timer_khz;

/* kHz of the APIC timer that counted apic_ticks while the TSC (tsc_khz)
 * advanced tsc_cycles. 0 when nothing was measured. */
u64 apic_khz_from(u64 apic_ticks, u64 tsc_cycles, u64 tsc_khz);
/* Initial count (divide by 1) for ms milliseconds, clamped to the 32-bit
 * register and at least 1; 0 when the rate is unknown. */
u32 apic_ticks_for_ms(u64 apic_khz, u32 ms);
/* The count of a re-look soon after a tick the host may have missed:
 * a hundredth of the tick, but never below APIC_RECHECK_MIN counts (10 us
 * at QEMU's 1 GHz, 0.4 ms at 25 MHz), whatever the calibration said: a
 * rate measured far too low (a descheduled calibration) would otherwise
 * re-arm the timer every few hundred counts and keep the host busy taking
 * its interrupts, never getting back to the guest. */
#define APIC_RECHECK_MIN 10000u
u32 apic_recheck_count(u32 tick_count);

#endif
