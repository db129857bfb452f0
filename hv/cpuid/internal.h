/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/cpuid/internal.h - the pieces of the guest CPUID model: the
 * allow-list (allow.c), the topology synthesised from the vCPU
 * (topology.c) and the XSAVE leaf (xsave.c); model.c puts them together. */
#ifndef MINHV_HV_CPUID_INTERNAL_H
#define MINHV_HV_CPUID_INTERNAL_H

#include "hv/cpuid/cpuid.h"

enum cpuid_reg { CR_EAX, CR_EBX, CR_ECX, CR_EDX, CR_NR };

static inline u32 *cpuid_reg(struct cpuid_regs *r, enum cpuid_reg i)
{
	return i == CR_EAX ? &r->eax :
	       i == CR_EBX ? &r->ebx :
	       i == CR_ECX ? &r->ecx :
			     &r->edx;
}

static inline bool cpuid_platform(const struct cpuid_vcpu *v)
{
	return v->kind != CPUID_GUEST_BUILTIN;
}

/* allow.c: the host bits of leaf/sub/reg that v may see as the host has
 * them (0: none). Synthesised fields are model.c's and topology.c's. */
u32 cpuid_allowed(const struct cpuid_vcpu *v, u32 leaf, u32 sub,
		  enum cpuid_reg reg);

/* topology.c: one socket, v->nr_vcpus cores, one thread each; APIC ID =
 * vCPU index (hv/platform's vLAPIC and MADT). */
u32 cpuid_order(u32 n); /* bits to number n IDs: ceil(log2(n)) */
u32 cpuid_topo_leaf1_ebx(const struct cpuid_vcpu *v, u32 host_ebx);
void cpuid_topo_ext(const struct cpuid_vcpu *v, u32 sub,
		    struct cpuid_regs *r); /* 0xB, 0x1F */
/* Leaf 4 (Intel) or 0x8000001D (AMD) subleaf: host cache, sharing ours. */
void cpuid_topo_cache(const struct cpuid_vcpu *v, bool amd,
		      struct cpuid_regs *r);
void cpuid_topo_8000001e(const struct cpuid_vcpu *v, struct cpuid_regs *r);
u32 cpuid_topo_80000008_ecx(const struct cpuid_vcpu *v);

/* xsave.c: leaf 0xD subleaf sub, masked to the XCR0 bits v may set. */
void cpuid_xsave(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		 u32 sub, struct cpuid_regs *r);
/* The XCR0 bits v may enable and that CPUID 0xD lists for it. */
u64 cpuid_xcr0(const struct cpuid_host *h, const struct cpuid_vcpu *v);

#endif
