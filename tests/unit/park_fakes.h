/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/park_fakes.h - host stand-ins for what parking needs beyond
 * arch/cpu.h: per-CPU structures, the cross-CPU call, the page pool. */
#ifndef MINHV_TESTS_UNIT_PARK_FAKES_H
#define MINHV_TESTS_UNIT_PARK_FAKES_H

#include "hv/smp/ipi.h"
#include "hv/percpu.h"

#define PF_NCPUS 4

/* Fresh fake CPUs 0..PF_NCPUS-1 with percpu structures; no CPUID. */
void pf_reset(void);

/* CPUID bits the speculation policy reads (AMD APM vol 3 appendix E,
 * Intel SDM vol 2 CPUID). */
#define AMD8_IBRS (1u << 14) /* 0x80000008 EBX */
#define AMD8_STIBP (1u << 15)
#define AMD8_IBRS_ALWAYS_ON (1u << 16)
#define AMD8_SSBD (1u << 24)
#define AMD21_AUTOIBRS (1u << 8) /* 0x80000021 EAX */
#define SVM_V_SPEC_CTRL (1u << 20) /* 0x8000000A EDX */
#define INTEL7_IBRS (1u << 26) /* 7.0 EDX */
#define INTEL7_STIBP (1u << 27)

/* Fake CPUID: an AMD EPYC (SVM, NPT) with these extra bits. */
void pf_cpuid_amd(u32 ebx_80000008, u32 eax_80000021, u32 edx_8000000a);
void pf_cpuid_intel(u32 edx_7);
/* On top of pf_cpuid_amd(): the hypervisor bit (leaf 1 ECX[31]) and this
 * 12-byte signature at leaf 0x40000000 ("TCGTCGTCGTCG", "KVMKVMKVM\0\0\0"). */
void pf_cpuid_hypervisor(const char *sig12);
/* The rsb_fill= option pf_boot_spec() passes (TRI_AUTO after pf_reset()). */
extern enum tristate pf_rsb_fill;
/* features_detect() into g_features, spec_ctrl_boot(snp), then
 * spec_ctrl_cpu_init() on every fake CPU; leaves fake CPU 0 selected and
 * the trace and console empty. */
void pf_boot_spec(bool snp_enabled);

/* ipi_call_on() records its calls here instead of sending an IPI. */
struct pf_call {
	u32 from, cpu;
	ipi_fn fn;
	bool wait;
};
extern struct pf_call pf_calls[64];
extern unsigned pf_ncalls;

#endif
