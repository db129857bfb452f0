// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/policy.c - boot-time SMP decisions: IPI fence by vendor (Linux
 * weak_wrmsr_fence, commit 04c3024560d3), INIT delay (Linux
 * smp_quirk_init_udelay), and the SMP settings. Pure, unit-tested. */
#include "hv/smp/policy.h"

#define SMP_OPTS_DEFAULT                                              \
	{                                                             \
		.fence = IPI_FENCE_AUTO, .mode = SMP_PARALLEL,        \
		.init_delay_us = INIT_DELAY_AUTO, .timeout_ms = 1000, \
		.sipi_max = 4, .maxcpus = 0,                          \
	}

struct smp_opts g_smp_opts = SMP_OPTS_DEFAULT;

void smp_opts_default(struct smp_opts *o)
{
	*o = (struct smp_opts)SMP_OPTS_DEFAULT;
}

/* Intel SDM vol 3 11.12.3: WRMSR to the x2APIC MSRs is not serializing, so
 * an IPI can overtake the stores it announces; Linux puts MFENCE;LFENCE
 * before it (weak_wrmsr_fence). AMD and Hygon do not need it (Linux commit
 * 04c3024560d3), and it costs: Zen 4 mesh IPI 4.93 M -> 6.36 M IPI/s. */
struct fence_decision smp_ipi_fence_decide(enum cpu_vendor v,
					   enum ipi_fence_opt opt)
{
	if (opt == IPI_FENCE_ON)
		return (struct fence_decision){ true,
						"forced by ipi_fence=on" };
	if (opt == IPI_FENCE_OFF)
		return (struct fence_decision){ false,
						"forced by ipi_fence=off" };
	switch (v) {
	case VENDOR_AMD:
	case VENDOR_HYGON:
		return (struct fence_decision){
			false, "AMD/Hygon: x2APIC MSR writes need no fence"
		};
	case VENDOR_INTEL:
		return (struct fence_decision){
			true, "Intel: x2APIC MSR writes are not serializing"
		};
	default:
		return (struct fence_decision){
			true, "unknown vendor: fence to be safe"
		};
	}
}

/* Linux smp_quirk_init_udelay(): no INIT delay on Intel family 6, AMD
 * family >= 0Fh and Hygon family >= 18h; the legacy 10 ms otherwise. */
u32 smp_init_delay_us(enum cpu_vendor v, u32 family, s64 opt)
{
	if (opt >= 0)
		return (u32)opt;
	if ((v == VENDOR_AMD && family >= 0xf) ||
	    (v == VENDOR_HYGON && family >= 0x18) ||
	    (v == VENDOR_INTEL && family == 6))
		return 0;
	return INIT_DELAY_LEGACY_US;
}
