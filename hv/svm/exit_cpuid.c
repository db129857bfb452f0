// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_cpuid.c - CPUID exits (APM vol 2, 15.13.2 intercept): the
 * hypervisor's own leaves at 0x40000000, SVM hidden, the rest passed. */
#include "arch/cpu.h"
#include "hv/svm/exit.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "hv/view/view.h"
#include "lib/string.h"

#define CPUID1_ECX_MONITOR BIT(3) /* MONITOR/MWAIT are not virtualized */
#define CPUID1_ECX_OSXSAVE BIT(27) /* mirrors CR4.OSXSAVE (bit 18) */
#define CPUID1_EDX_APIC BIT(9)
#define CPUID1_ECX_TSC_DEADLINE BIT(24) /* the vLAPIC has it */
#define CPUID1_ECX_HYPERVISOR BIT(31)
/* Timing information (the VMware convention Linux and others read): EAX TSC
 * kHz, EBX APIC bus kHz. */
#define HV_CPUID_TIMING 0x40000010u
#define CPUID7_ECX_OSPKE BIT(4) /* mirrors CR4.PKE (bit 22) */
/* PKS: IA32_PKRS and CR4.PKS (SDM vol 3A 4.6.2). Shown only when minhv
 * gives each vCPU its own PKRS (g_features.pks, hv/vcpu/vcpu_pkrs.c):
 * without it 0x6E1 is #GP and a guest must not look for it. */
#define CPUID7_ECX_PKS BIT(31)
#define CR4_OSXSAVE BIT(18)
#define CR4_PKE BIT(22)
#define CPUID81_ECX_SVM BIT(2)
/* Leaves from 0x8000001F (SME/SEV) up are hidden: with SEV reported there,
 * Linux's sme_enable() reads MSR_AMD64_SEV unchecked and faults. */
#define GUEST_MAX_EXT_LEAF 0x8000001eu

/* Out of line: rare, and its memcpy()s would give every CPUID exit a
 * frame. */
static __attribute__((noinline)) void hv_leaf(struct vcpu *v, u32 leaf,
					      struct cpuid_regs *r)
{
	static const char sig[12] = "minhvminhv\0";

	*r = (struct cpuid_regs){ 0, 0, 0, 0 };
	if (leaf == HV_CPUID_BASE) {
		/* highest hypervisor leaf */
		r->eax = guest_has_platform(v->guest) ? HV_CPUID_TIMING :
							HV_CPUID_FEATURES;
		memcpy(&r->ebx, sig, 4);
		memcpy(&r->ecx, sig + 4, 4);
		memcpy(&r->edx, sig + 8, 4);
	} else if (leaf == HV_CPUID_FEATURES) {
		r->eax = HV_ABI_VERSION;
		r->ebx = v->id;
		r->ecx = v->guest->nr_vcpus;
	} else if (leaf == HV_CPUID_TIMING && guest_has_platform(v->guest)) {
		r->eax = (u32)v->guest->plat.tsc_khz;
		r->ebx = VLAPIC_BUS_KHZ;
	}
}

/* Inlined into exit_cpuid(), the path of every CPUID exit. */
static inline void leaf_of(struct vcpu *v, u32 leaf, u32 sub,
			   struct cpuid_regs *r)
{
	if (leaf >= HV_CPUID_BASE && leaf <= HV_CPUID_BASE + 0xff) {
		hv_leaf(v, leaf, r);
		return;
	}
	if (leaf > GUEST_MAX_EXT_LEAF && leaf <= 0x8000ffffu) {
		*r = (struct cpuid_regs){ 0, 0, 0, 0 }; /* above the max */
		return;
	}
	cpuid(leaf, sub, r);
	switch (leaf) {
	case 0x80000000:
		if (r->eax > GUEST_MAX_EXT_LEAF)
			r->eax = GUEST_MAX_EXT_LEAF;
		break;
	case 1:
		r->ecx |= CPUID1_ECX_HYPERVISOR;
		r->ecx &= ~(u32)CPUID1_ECX_MONITOR;
		if (guest_has_platform(v->guest)) {
			r->ecx |= CPUID1_ECX_TSC_DEADLINE;
			/* EDX.APIC follows IA32_APIC_BASE.EN (SDM vol 3,
			 * 11.4.3: a disabled APIC is absent to CPUID). */
			if (vlapic_mode(&v->lapic) == VLAPIC_DISABLED)
				r->edx &= ~(u32)CPUID1_EDX_APIC;
		}
		/* The OS-enabled bits reflect the guest's CR4, not ours. */
		r->ecx &= ~(u32)CPUID1_ECX_OSXSAVE;
		if (v->vmcb->save.cr4 & CR4_OSXSAVE)
			r->ecx |= CPUID1_ECX_OSXSAVE;
		break;
	case 7:
		if (sub != 0)
			break;
		r->ecx &= ~(u32)CPUID7_ECX_OSPKE;
		if (v->vmcb->save.cr4 & CR4_PKE)
			r->ecx |= CPUID7_ECX_OSPKE;
		if (!g_features.pks)
			r->ecx &= ~(u32)CPUID7_ECX_PKS;
		break;
	case 0x80000001:
		r->ecx &= ~(u32)CPUID81_ECX_SVM;
		break;
	case 0x8000000a: /* the SVM feature leaf: no nested SVM */
		*r = (struct cpuid_regs){ 0, 0, 0, 0 };
		break;
	}
	if (v->guest->kind == GUEST_LINUX)
		linux_cpuid_filter(leaf, sub, r);
}

void exit_cpuid_leaf(struct vcpu *v, u32 leaf, u32 sub, struct cpuid_regs *r)
{
	leaf_of(v, leaf, sub, r);
}

/* Leaves in the table's range whose answer depends on ECX (subleaf
 * indexed: APM vol 3 appendix E, SDM vol 2A CPUID): never tabled. */
#define TAB_INDEXED                                                         \
	(BIT(0x4) | BIT(0x7) | BIT(0xb) | BIT(0xd) | BIT(0xf) | BIT(0x10) | \
	 BIT(0x12) | BIT(0x14) | BIT(0x17) | BIT(0x18) | BIT(0x1b) |        \
	 BIT(0x1d) | BIT(0x1e) | BIT(0x1f) | BIT(32 + 0x1d))
#define TAB_SLOTS 64

static u32 tab_leaf(unsigned slot)
{
	return (slot & 0x1f) | (slot & 0x20 ? 0x80000000u : 0);
}

/* On the vCPU's own CPU (leaf 1 EBX, 0x8000001E carry its APIC ID), when
 * its loop starts. Only leaves up to the host's maximum are tabled: above
 * it a CPU may answer with its highest leaf (Intel, QEMU), which may be
 * indexed; those take the slow path like every other leaf. */
void exit_cpuid_fill(struct vcpu *v)
{
	struct cpuid_regs r;
	u32 max_basic, max_ext;
	u64 fast = 0;

	v->cpuid_fast = 0;
	v->cpuid_last_key = 0;
	cpuid(0, 0, &r);
	max_basic = r.eax;
	cpuid(0x80000000, 0, &r);
	max_ext = r.eax;
	for (unsigned i = 0; i < TAB_SLOTS; i++) {
		u32 leaf = tab_leaf(i);

		if (TAB_INDEXED & BIT(i))
			continue;
		/* 0x8000001F and up read as zero whatever the host has. */
		if (leaf <= GUEST_MAX_EXT_LEAF &&
		    leaf > (leaf & 0x80000000u ? max_ext : max_basic))
			continue;
		leaf_of(v, leaf, 0, &r);
		if (leaf == 1) /* set per exit from the guest's CR4 */
			r.ecx &= ~(u32)CPUID1_ECX_OSXSAVE;
		v->cpuid_tab[i] =
			(struct vcpu_cpuid_row){ r.eax, r.ebx, r.ecx, r.edx };
		fast |= BIT(i);
	}
	v->cpuid_fast = fast;
}

/* The result into the guest's registers (64-bit values: CPUID's 32-bit
 * results zero-extend), RIP stepped here (CPUID is 2 bytes, 0F A2) rather
 * than through vcpu_skip_insn()'s general case. */
static inline enum exit_action cpuid_done(struct vcpu *v, struct vmcb *vm,
					  u64 rax, u64 rbx, u64 rcx, u64 rdx)
{
	u64 nrip = vm->control.next_rip;

	vm->save.rax = rax;
	v->gprs.rbx = rbx;
	v->gprs.rcx = rcx;
	v->gprs.rdx = rdx;
	/* NRIP when the CPU wrote it (15.7.1), as exit_next_rip(). */
	vm->save.rip = g_features.nrips && nrip ? nrip : vm->save.rip + 2;
	vcpu_insn_done(v);
	return EXIT_RESUME;
}

/* Leaves not in the table (or before it is filled): computed in full,
 * and kept as the last one when the answer cannot change while the loop
 * runs: not leaf 1 (APIC enable, CR4.OSXSAVE), 7.0 (CR4.PKE), 0xD.0 and
 * 0xD.1 (sizes for the guest's XCR0 and XSS, SDM vol 2A CPUID). The
 * rest depend on the CPU (APIC IDs: the table is refilled, and this
 * reset, when the loop starts on a CPU) or on nothing. */
static __attribute__((noinline, cold)) enum exit_action
cpuid_slow(struct vcpu *v, struct vmcb *vm, u32 leaf)
{
	u32 sub = (u32)v->gprs.rcx;
	struct cpuid_regs r;

	leaf_of(v, leaf, sub, &r);
	if (leaf != 1 && !(leaf == 7 && sub == 0) &&
	    !(leaf == 0xd && sub <= 1)) {
		v->cpuid_last =
			(struct vcpu_cpuid_row){ r.eax, r.ebx, r.ecx, r.edx };
		v->cpuid_last_key = ((u64)leaf << 32 | sub) + 1;
	}
	return cpuid_done(v, vm, r.eax, r.ebx, r.ecx, r.edx);
}

void exit_cpuid_refresh_leaf1(struct vcpu *v)
{
	struct cpuid_regs r;

	if (!(v->cpuid_fast & BIT(1)))
		return; /* not tabled (yet): computed per exit */
	leaf_of(v, 1, 0, &r);
	r.ecx &= ~(u32)CPUID1_ECX_OSXSAVE; /* set per exit from CR4 */
	v->cpuid_tab[1] = (struct vcpu_cpuid_row){ r.eax, r.ebx, r.ecx, r.edx };
}

/* Every CPUID exit: a table slot plus the CR4 fix-up of leaf 1; leaf 7's
 * OSPKE is indexed by subleaf, so it is computed on the slow path. */
enum exit_action exit_cpuid(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	u32 leaf = (u32)vm->save.rax;
	/* Bit 31 to bit 5: slot for leaves 0-0x1f, 0x80000000-0x8000001f
	 * (the only ones that pass the range test). */
	unsigned slot = (leaf | leaf >> 26) & 0x3f;
	const struct vcpu_cpuid_row *t;
	u64 rax, rbx, rcx, rdx;

	if (__builtin_expect(
		    (leaf & 0x7fffffe0u) || !(v->cpuid_fast & BIT(slot)), 0)) {
		if (((u64)leaf << 32 | (u32)v->gprs.rcx) + 1 !=
		    v->cpuid_last_key)
			return cpuid_slow(v, vm, leaf);
		t = &v->cpuid_last; /* never leaf 1: no fix-up below */
		return cpuid_done(v, vm, t->rax, t->rbx, t->rcx, t->rdx);
	}
	t = &v->cpuid_tab[slot];
	rax = t->rax;
	rbx = t->rbx;
	rcx = t->rcx;
	rdx = t->rdx;
	if (leaf == 1 && (vm->save.cr4 & CR4_OSXSAVE))
		rcx |= CPUID1_ECX_OSXSAVE;
	return cpuid_done(v, vm, rax, rbx, rcx, rdx);
}
