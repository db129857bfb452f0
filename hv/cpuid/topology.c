// SPDX-License-Identifier: GPL-2.0-only
/* hv/cpuid/topology.c - the topology a guest reads from CPUID, made from
 * the vCPU and never from the physical CPU it runs on: one package of
 * nr_vcpus cores with one thread each, one node, APIC ID = vCPU index (as
 * the vLAPIC, hv/vlapic/vlapic.c, and the guest MADT,
 * hv/platform/acpi_tables.c, number them). Whatever firmware numbering
 * the host has (sparse per-CCD IDs, first threads first), every leaf Linux
 * reads agrees: leaf 1 EBX, 0xB/0x1F, 0x80000008 ECX, 0x8000001E, and the
 * sharing fields of leaf 4 and 0x8000001D. Linux 6.9+ (topology_amd.c,
 * topology_ext.c) builds its domains from 0xB (SMT shift 0, core shift
 * ceil(log2(n))), takes the initial APIC ID from 0x8000001E EAX and the LLC
 * ID from 0x8000001D; Linux 6.1 (amd.c) uses 0x80000008 ECX for the core
 * bits: all the same shift here, so every CPU is package 0. */
#include "hv/cpuid/internal.h"
#include "arch/cpuid.h"

u32 cpuid_order(u32 n)
{
	u32 b = 0;

	while (b < 32 && (1ULL << b) < n)
		b++;
	return b;
}

static u32 min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

/* Leaf 1 EBX: brand index and CLFLUSH size as the host has them; 23:16
 * logical processors in the package (with HTT), 31:24 the initial APIC ID
 * (an 8-bit field: its low byte from 256 vCPUs on; 0xB has all of it). */
u32 cpuid_topo_leaf1_ebx(const struct cpuid_vcpu *v, u32 host_ebx)
{
	return (host_ebx & 0xffffu) |
	       min_u32(v->nr_vcpus, 0xff) << CPUID_1_EBX_NPROC_SHIFT |
	       (v->id & 0xff) << CPUID_1_EBX_APIC_ID_SHIFT;
}

/* 0xB and 0x1F (SDM vol 2A, extended topology): subleaf 0 the SMT level
 * (1 thread, shift 0), subleaf 1 the core level (n cores, shift
 * ceil(log2(n))), then invalid levels; EDX the x2APIC ID in all. */
void cpuid_topo_ext(const struct cpuid_vcpu *v, u32 sub, struct cpuid_regs *r)
{
	*r = (struct cpuid_regs){ 0, 0, sub & 0xff, v->id };
	if (sub == 0) {
		r->ebx = 1;
		r->ecx |= CPUID_TOPO_TYPE_SMT << CPUID_TOPO_ECX_TYPE_SHIFT;
	} else if (sub == 1) {
		r->eax = cpuid_order(v->nr_vcpus);
		r->ebx = min_u32(v->nr_vcpus, CPUID_TOPO_EBX_NPROC);
		r->ecx |= CPUID_TOPO_TYPE_CORE << CPUID_TOPO_ECX_TYPE_SHIFT;
	}
}

/* A cache descriptor (leaf 4, or AMD's 0x8000001D with the same low
 * fields): L1 and L2 belong to one core, so to one thread; the L3 to the
 * whole package. AMD counts the threads sharing (minus one); Intel's leaf
 * 4 counts addressable IDs (minus one) and has the cores per package in
 * 31:26. Caches are the host's, sizes and all. */
void cpuid_topo_cache(const struct cpuid_vcpu *v, bool amd,
		      struct cpuid_regs *r)
{
	u32 level = (r->eax >> CPUID_4_EAX_LEVEL_SHIFT) & 7;
	u32 ids = 1u << cpuid_order(v->nr_vcpus);
	u32 sharing = 0;

	if (!(r->eax & CPUID_4_EAX_TYPE))
		return; /* no cache: the list ends */
	if (level >= 3)
		sharing = (amd ? v->nr_vcpus : ids) - 1;
	r->eax &= (1u << CPUID_4_EAX_SHARING_SHIFT) - 1;
	r->eax |= min_u32(sharing, 0xfff) << CPUID_4_EAX_SHARING_SHIFT;
	if (!amd)
		r->eax |= min_u32(ids - 1, 0x3f) << CPUID_4_EAX_CORES_SHIFT;
}

/* 0x8000001E: EAX the extended APIC ID; EBX core ID and threads per core
 * minus one (0); ECX node ID 0 and nodes per package minus one (0). */
void cpuid_topo_8000001e(const struct cpuid_vcpu *v, struct cpuid_regs *r)
{
	*r = (struct cpuid_regs){ v->id, v->id & 0xff, 0, 0 };
}

/* 0x80000008 ECX: NC = threads in the package minus one (8 bits), and
 * ApicIdSize, the APIC ID bits that number them. */
u32 cpuid_topo_80000008_ecx(const struct cpuid_vcpu *v)
{
	return min_u32(v->nr_vcpus - 1, CPUID_88_ECX_NC) |
	       cpuid_order(v->nr_vcpus) << CPUID_88_ECX_APIC_ID_SIZE_SHIFT;
}
