/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/cpuid/cpuid.h - the guest's CPUID: computed leaf by leaf, register by
 * register, from an allow-list of what minhv virtualises or passes through
 * safely (as KVM's kvm_set_cpu_caps() does), on top of the host's leaves
 * captured once at boot. Topology and APIC IDs come from the vCPU (id and
 * count), as the vLAPIC and the guest's MADT number them, never from the
 * physical CPU. A pure model: no hardware access after the capture, so the
 * unit tests feed it real CPUID dumps. */
#ifndef MINHV_HV_CPUID_CPUID_H
#define MINHV_HV_CPUID_CPUID_H

#include "arch/cpu.h"
#include "arch/types.h"

/* The highest leaves a guest sees (when the host has them): basic up to
 * 0x1F (extended topology), extended up to 0x8000001E. From 0x8000001F
 * (SME/SEV) up everything is hidden: with SEV reported there, Linux's
 * sme_enable() reads MSR_AMD64_SEV unchecked; 0x80000021 (AutoIBRS, SBPB)
 * and 0x80000022 (PerfMonV2) name MSR bits minhv does not give. */
#define CPUID_GUEST_MAX_BASIC 0x1fu
#define CPUID_GUEST_MAX_EXT 0x8000001eu

/* Host leaves kept: the basic and extended ranges up to 0x1F, and the
 * subleaves of the indexed leaves the model passes on. Above the host's
 * maximum a slot stays zero (never the CPU's answer for its highest
 * leaf, which Intel parts give). */
#define CPUID_HOST_LEAVES 0x20
#define CPUID_HOST_CACHES 8 /* leaf 4 and 0x8000001D subleaves */
#define CPUID_HOST_SUB7 2 /* leaf 7 subleaves 0 and 1 */
#define CPUID_HOST_XSAVE 32 /* leaf 0xD subleaves (XCR0 bits 0-31) */

struct cpuid_host {
	u32 max_basic, max_ext;
	struct cpuid_regs basic[CPUID_HOST_LEAVES]; /* subleaf 0 */
	struct cpuid_regs ext[CPUID_HOST_LEAVES]; /* 0x80000000 + n */
	struct cpuid_regs leaf4[CPUID_HOST_CACHES];
	struct cpuid_regs leaf7[CPUID_HOST_SUB7];
	struct cpuid_regs xsave[CPUID_HOST_XSAVE];
	struct cpuid_regs cache_ext[CPUID_HOST_CACHES]; /* 0x8000001D */
};

/* Captured on the boot CPU by svm_init(), before any guest runs. */
extern struct cpuid_host g_cpuid_host;
/* Fill *h from this CPU's CPUID (the arch/cpu.h primitive). */
void cpuid_host_capture(struct cpuid_host *h);

/* Which guest: each kind has its own view of the few features only some
 * guests have (docs/GUESTS.md "CPUID and MSRs"). */
enum cpuid_guest_kind {
	CPUID_GUEST_BUILTIN, /* minhv's ELF64 test guest: no platform */
	CPUID_GUEST_MULTIBOOT, /* kvm-unit-tests and the like: platform, PMU */
	CPUID_GUEST_LINUX, /* a bzImage: platform */
};

/* What the model needs to know of the vCPU asking. */
struct cpuid_vcpu {
	enum cpuid_guest_kind kind;
	u32 id; /* vCPU index = APIC ID (vLAPIC, guest MADT) */
	u32 nr_vcpus;
	/* XCR0 bits minhv lets a guest enable (g_fpu.xcr0), 0 without
	 * XSAVE; and the guest's XCR0 now (leaf 0xD sizes follow it). */
	u64 xcr0_allowed, xcr0;
	u64 cr4; /* CPUID.1:ECX.OSXSAVE and 7.0:ECX.OSPKE mirror it */
	bool apic_enabled; /* IA32_APIC_BASE.EN: CPUID.1:EDX.APIC */
	/* Facts minhv decided: IA32_PKRS is switched per vCPU (at boot,
	 * hv/features.h); IA32_TSC_ADJUST is emulated for this guest
	 * (guest_tsc_adjust(), hv/guest/guest.h). */
	bool pks, tsc_adjust;
	u64 tsc_khz; /* 0x40000010 EAX (platform guests) */
	u32 apic_bus_khz; /* 0x40000010 EBX */
};

/* What CPUID leaf/sub returns to v, from the host's leaves h. */
void cpuid_guest_leaf(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		      u32 leaf, u32 sub, struct cpuid_regs *r);

#endif
