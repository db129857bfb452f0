/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/time.h - TSC-based time for bring-up timeouts and benchmarks: the
 * TSC rate is measured once against PIT channel 2 (present on PCs and under
 * QEMU); the TSC is assumed invariant (CPUID 80000007h EDX[8] on EPYC). */
#ifndef MINHV_HV_SMP_TIME_H
#define MINHV_HV_SMP_TIME_H

#include "arch/types.h"

#define PIT_HZ 1193182u /* 8254 input clock */

extern u64 g_tsc_khz;

/* Measure g_tsc_khz (boot CPU, once). Falls back to 2 GHz, with a warning,
 * when the PIT does not count. */
void tsc_calibrate(void);
/* Pure: kHz from cycles elapsed over pit_ticks of the 1.193182 MHz PIT. */
u64 tsc_khz_from(u64 cycles, u32 pit_ticks);
u64 tsc_to_us(u64 cycles);
u64 tsc_now_us(void);
void udelay(u32 us);

#endif
