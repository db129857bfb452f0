// SPDX-License-Identifier: GPL-2.0-only
/* hv/cpuid/model.c - the guest CPUID, leaf by leaf: the allow-listed host
 * bits (allow.c), the bits minhv synthesises (hypervisor present, the
 * vLAPIC's TSC-deadline timer, the OS-enabled bits that mirror the guest's
 * CR4, CPUID.1:EDX.APIC following IA32_APIC_BASE.EN), the topology
 * (topology.c), leaf 0xD (xsave.c) and minhv's own leaves at 0x40000000.
 * Leaves the model does not know read zero, as do leaves above the highest
 * the guest is told of (AMD's rule, APM vol 3 CPUID; on Intel parts an
 * out-of-range leaf would repeat the highest one, which minhv never
 * does). */
#include "hv/cpuid/internal.h"
#include "arch/cpuid.h"
#include "arch/cr.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"

/* Timing information (the VMware convention Linux and others read): EAX
 * TSC kHz, EBX APIC bus kHz; platform guests only. */
#define HV_CPUID_TIMING 0x40000010u
#define HV_CPUID_LAST 0x4fffffffu
/* KVM's signature leaf where Linux looks for it besides 0x40000000 (its
 * hypervisor_cpuid_base() scans every 0x100), with no KVM feature in its
 * features leaf: Linux guests only. It tells Linux that x2APIC works
 * without interrupt remapping (x86_init.hyper.x2apic_available, KVM's
 * kvm_para_available()), so Linux turns x2APIC on when it sets up the I/O
 * APIC: its APIC accesses become MSR exits instead of decoded MMIO. No
 * paravirtual feature is offered (docs/GUESTS.md "Linux in x2APIC
 * mode"). */
#define KVM_CPUID_SIGNATURE 0x40000100u
#define KVM_CPUID_FEATURES 0x40000101u

static const struct cpuid_regs zero;

static u32 max_basic(const struct cpuid_host *h)
{
	return h->max_basic < CPUID_GUEST_MAX_BASIC ? h->max_basic :
						      CPUID_GUEST_MAX_BASIC;
}

static u32 max_ext(const struct cpuid_host *h)
{
	if (h->max_ext < 0x80000000u)
		return 0;
	return h->max_ext < CPUID_GUEST_MAX_EXT ? h->max_ext :
						  CPUID_GUEST_MAX_EXT;
}

/* The host's leaf/sub as captured (zero where nothing was kept). */
static const struct cpuid_regs *host(const struct cpuid_host *h, u32 leaf,
				     u32 sub)
{
	u32 n = leaf & 0x7fffffffu;

	if (leaf == 4 || leaf == 0x8000001du) {
		if (sub >= CPUID_HOST_CACHES)
			return &zero;
		return leaf == 4 ? &h->leaf4[sub] : &h->cache_ext[sub];
	}
	if (leaf == 7)
		return sub < CPUID_HOST_SUB7 ? &h->leaf7[sub] : &zero;
	if (leaf == 0xd)
		return sub < CPUID_HOST_XSAVE ? &h->xsave[sub] : &zero;
	if (n >= CPUID_HOST_LEAVES || sub)
		return &zero;
	return leaf & 0x80000000u ? &h->ext[n] : &h->basic[n];
}

/* Every register: host bits & the allow-list. */
static void masked(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		   u32 leaf, u32 sub, struct cpuid_regs *r)
{
	const struct cpuid_regs *hr = host(h, leaf, sub);

	r->eax = hr->eax & cpuid_allowed(v, leaf, sub, CR_EAX);
	r->ebx = hr->ebx & cpuid_allowed(v, leaf, sub, CR_EBX);
	r->ecx = hr->ecx & cpuid_allowed(v, leaf, sub, CR_ECX);
	r->edx = hr->edx & cpuid_allowed(v, leaf, sub, CR_EDX);
}

/* Out of line: rare, and its memcpy()s would give every call a frame. */
static __attribute__((noinline)) void hv_leaf(const struct cpuid_vcpu *v,
					      u32 leaf, struct cpuid_regs *r)
{
	static const char sig[12] = "minhvminhv\0";
	static const char kvm[12] = "KVMKVMKVM\0\0";

	if (leaf == KVM_CPUID_SIGNATURE && v->kind == CPUID_GUEST_LINUX) {
		r->eax = KVM_CPUID_FEATURES; /* its features: all zero */
		memcpy(&r->ebx, kvm, 4);
		memcpy(&r->ecx, kvm + 4, 4);
		memcpy(&r->edx, kvm + 8, 4);
	} else if (leaf == HV_CPUID_BASE) {
		/* highest hypervisor leaf */
		r->eax = cpuid_platform(v) ? HV_CPUID_TIMING :
					     HV_CPUID_FEATURES;
		memcpy(&r->ebx, sig, 4);
		memcpy(&r->ecx, sig + 4, 4);
		memcpy(&r->edx, sig + 8, 4);
	} else if (leaf == HV_CPUID_FEATURES) {
		r->eax = HV_ABI_VERSION;
		r->ebx = v->id;
		r->ecx = v->nr_vcpus;
	} else if (leaf == HV_CPUID_TIMING && cpuid_platform(v)) {
		r->eax = (u32)v->tsc_khz;
		r->ebx = v->apic_bus_khz;
	}
}

static void leaf1(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		  struct cpuid_regs *r)
{
	masked(h, v, 1, 0, r);
	r->ebx = cpuid_topo_leaf1_ebx(v, h->basic[1].ebx);
	r->ecx |= CPUID_1_ECX_HYPERVISOR;
	/* The OS-enabled bit reflects the guest's CR4, not the host's. */
	if (v->cr4 & CR4_OSXSAVE)
		r->ecx |= CPUID_1_ECX_OSXSAVE;
	if (v->nr_vcpus > 1)
		r->edx |= CPUID_1_EDX_HTT; /* more than one core in it */
	if (cpuid_platform(v)) {
		r->ecx |= CPUID_1_ECX_TSC_DEADLINE; /* the vLAPIC has it */
		/* EDX.APIC follows IA32_APIC_BASE.EN (SDM vol 3, 11.4.3: a
		 * disabled APIC is absent to CPUID). */
		if (!v->apic_enabled)
			r->edx &= ~(u32)CPUID_1_EDX_APIC;
	}
}

static void leaf7(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		  u32 sub, struct cpuid_regs *r)
{
	if (sub >= CPUID_HOST_SUB7)
		return; /* 7.2 and up: nothing minhv gives */
	masked(h, v, 7, sub, r);
	if (sub == 0) {
		/* The highest subleaf: 1 where the host has it. */
		r->eax = h->leaf7[0].eax ? 1 : 0;
		/* Emulated for this guest, whether the host has it or not. */
		if (v->tsc_adjust && cpuid_platform(v))
			r->ebx |= CPUID_7_0_EBX_TSC_ADJUST;
		if (v->cr4 & CR4_PKE)
			r->ecx |= CPUID_7_0_ECX_OSPKE;
	}
}

static void basic(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		  u32 leaf, u32 sub, struct cpuid_regs *r)
{
	struct cpuid_regs c;

	switch (leaf) {
	case 0: /* highest leaf, vendor */
		*r = h->basic[0];
		r->eax = max_basic(h);
		break;
	case 1:
		leaf1(h, v, r);
		break;
	case 4: /* Intel's cache leaf (reserved, zero, on AMD) */
		c = *host(h, 4, sub);
		cpuid_topo_cache(v, false, &c);
		*r = c;
		break;
	case 7:
		leaf7(h, v, sub, r);
		break;
	case 0xb:
	case 0x1f:
		cpuid_topo_ext(v, sub, r);
		break;
	case 0xd:
		cpuid_xsave(h, v, sub, r);
		break;
	default: /* 6; leaves with no row in allow.c read zero */
		masked(h, v, leaf, sub, r);
		break;
	}
}

static void ext(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		u32 leaf, u32 sub, struct cpuid_regs *r)
{
	struct cpuid_regs c;

	switch (leaf) {
	case 0x80000000: /* highest extended leaf, vendor */
		*r = h->ext[0];
		r->eax = max_ext(h);
		break;
	case 0x80000001:
		masked(h, v, leaf, 0, r);
		/* CmpLegacy: more than one core, none with SMT (as HTT). */
		if (v->nr_vcpus > 1)
			r->ecx |= CPUID_81_ECX_CMP_LEGACY;
		break;
	case 0x80000008:
		masked(h, v, leaf, 0, r);
		r->ecx = cpuid_topo_80000008_ecx(v);
		break;
	case 0x8000001d:
	case 0x8000001e:
		/* TopologyExtensions, as the host has it, says they exist. */
		if (!(h->ext[1].ecx & CPUID_81_ECX_TOPOEXT))
			break;
		if (leaf == 0x8000001e) {
			cpuid_topo_8000001e(v, r);
			break;
		}
		c = *host(h, leaf, sub);
		cpuid_topo_cache(v, true, &c);
		*r = c;
		break;
	case 0x80000007:
		masked(h, v, leaf, 0, r);
		/* A Linux guest's TSC is invariant whether the host says so or
		 * not (QEMU's TCG models do not): it is the host TSC plus one
		 * offset for all of its vCPUs, and every other clock minhv
		 * gives it (HPET, PM timer, PIT, vLAPIC timer) is that same
		 * TSC scaled, so it is no less steady than they are. Without
		 * the bit Linux marks the TSC unstable on more than one CPU
		 * and keeps time by the HPET, every read an exit. */
		if (v->kind == CPUID_GUEST_LINUX)
			r->edx |= CPUID_87_EDX_INVARIANT_TSC;
		break;
	default:
		masked(h, v, leaf, sub, r);
		break;
	}
}

void cpuid_guest_leaf(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		      u32 leaf, u32 sub, struct cpuid_regs *r)
{
	*r = zero;
	if (leaf >= HV_CPUID_BASE && leaf <= HV_CPUID_LAST)
		hv_leaf(v, leaf, r);
	else if (leaf < HV_CPUID_BASE && leaf <= max_basic(h))
		basic(h, v, leaf, sub, r);
	else if (leaf >= 0x80000000u && leaf <= max_ext(h))
		ext(h, v, leaf, sub, r);
}
