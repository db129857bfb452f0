/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/policy.h - the SMP decisions taken once at boot from the CPU vendor
 * and the options: the IPI fence and the INIT delay. This is the only place
 * in SMP/IPI code that looks at the vendor. */
#ifndef MINHV_HV_SMP_POLICY_H
#define MINHV_HV_SMP_POLICY_H

#include "arch/types.h"
#include "hv/features.h"

enum ipi_fence_opt { IPI_FENCE_AUTO, IPI_FENCE_ON, IPI_FENCE_OFF };
enum smp_mode { SMP_PARALLEL, SMP_SERIAL };

#define INIT_DELAY_AUTO (-1)
#define INIT_DELAY_LEGACY_US 10000 /* MP spec B.4: 10 ms after INIT */

/* SMP settings, filled from the options (hv/options/options.h) by hv/smp/smp.c. */
struct smp_opts {
	enum ipi_fence_opt fence; /* ipi_fence=auto|on|off */
	enum smp_mode mode; /* smp=parallel|serial */
	s64 init_delay_us; /* INIT_DELAY_AUTO or microseconds */
	u32 timeout_ms; /* wait for check-in after the last SIPI */
	u32 sipi_max; /* SIPIs per AP before giving up, >= 1 */
	u32 maxcpus; /* 0 = all the MADT lists */
};

extern struct smp_opts g_smp_opts;

void smp_opts_default(struct smp_opts *o);

struct fence_decision {
	bool fence; /* MFENCE;LFENCE before x2APIC ICR/SELF_IPI writes */
	const char *why;
};
struct fence_decision smp_ipi_fence_decide(enum cpu_vendor v,
					   enum ipi_fence_opt opt);

/* Microseconds to wait between INIT and the first SIPI. */
u32 smp_init_delay_us(enum cpu_vendor v, u32 family, s64 opt);

#endif
