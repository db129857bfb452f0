/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/time.h - TSC-based time for bring-up timeouts, guest clocks and
 * benchmarks: the TSC rate is measured once at boot against the reference
 * clocks the machine has (hv/time/tsc_cal.h); the TSC is assumed invariant
 * (CPUID 80000007h EDX[8] on EPYC). */
#ifndef MINHV_HV_SMP_TIME_H
#define MINHV_HV_SMP_TIME_H

#include "arch/timers.h"
#include "arch/types.h"
#include "hv/acpi/acpi.h"

extern u64 g_tsc_khz;

/* Measure g_tsc_khz (boot CPU, once) against the HPET, the ACPI PM timer
 * and PIT channel 2, whichever of them count; two or three log lines say
 * how. With no consensus in the budget, the best-supported estimate, with
 * a warning. With no reference counting, the rate a hypervisor states
 * (CPUID 0x40000010) is taken, with a warning; otherwise the run stops
 * with the fail status: minhv never guesses a rate. */
void tsc_calibrate(const struct acpi_info *a);
u64 tsc_to_us(u64 cycles);
u64 tsc_now_us(void);

#endif
