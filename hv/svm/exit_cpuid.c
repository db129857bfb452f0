// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_cpuid.c - CPUID exits (APM vol 2, 15.13.2 intercept): the
 * guest CPUID model (hv/cpuid/: an allow-list, topology from the vCPU)
 * answers; a per-vCPU table keeps the leaves that ignore ECX. */
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/cr.h"
#include "hv/svm/exit.h"
#include "hv/cpuid/cpuid.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "hv/vcpu/vcpu_fpu.h"

/* The vCPU as the CPUID model (hv/cpuid/) sees it. */
static enum cpuid_guest_kind kind_of(const struct guest *g)
{
	if (g->kind == GUEST_LINUX)
		return CPUID_GUEST_LINUX;
	/* Every other guest with the platform is a multiboot kernel. */
	return guest_has_platform(g) ? CPUID_GUEST_MULTIBOOT :
				       CPUID_GUEST_BUILTIN;
}

/* Inlined into the slow path and the table fill. */
static inline void leaf_of(struct vcpu *v, u32 leaf, u32 sub,
			   struct cpuid_regs *r)
{
	const struct guest *g = v->guest;
	const struct cpuid_vcpu cv = {
		.kind = kind_of(g),
		.id = v->id,
		.nr_vcpus = g->nr_vcpus,
		.xcr0_allowed = g_fpu.mode == FPU_XSAVE ? g_fpu.xcr0 : 0,
		.xcr0 = v->xcr0,
		.cr4 = v->vmcb->save.cr4,
		.apic_enabled = !guest_has_platform(g) ||
				vlapic_mode(&v->lapic) != VLAPIC_DISABLED,
		.pks = g_features.pks,
		.tsc_adjust = guest_tsc_adjust(g),
		.tsc_khz = guest_has_platform(g) ? g->plat.tsc_khz : 0,
		.apic_bus_khz = VLAPIC_BUS_KHZ,
	};

	cpuid_guest_leaf(&g_cpuid_host, &cv, leaf, sub, r);
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

/* When the vCPU's loop starts. The model answers every leaf (zero above
 * the guest's maximum), so every slot that ignores ECX is tabled. */
void exit_cpuid_fill(struct vcpu *v)
{
	struct cpuid_regs r;
	u64 fast = 0;

	v->cpuid_fast = 0;
	v->cpuid_last_key = 0;
	for (unsigned i = 0; i < TAB_SLOTS; i++) {
		if (TAB_INDEXED & BIT(i))
			continue;
		leaf_of(v, tab_leaf(i), 0, &r);
		if (i == 1) /* set per exit from the guest's CR4 */
			r.ecx &= ~(u32)CPUID_1_ECX_OSXSAVE;
		v->cpuid_tab[i] =
			(struct vcpu_cpuid_row){ r.eax, r.ebx, r.ecx, r.edx };
		fast |= BIT(i);
	}
	v->cpuid_fast = fast;
}

/* The result into the guest's registers (64-bit values: CPUID's 32-bit
 * results zero-extend), the instruction completed as one of known length
 * (CPUID is 2 bytes, 0F A2) rather than through vcpu_skip_insn()'s
 * general case. */
static inline enum exit_action cpuid_done(struct vcpu *v, struct vmcb *vm,
					  u64 rax, u64 rbx, u64 rcx, u64 rdx)
{
	vm->save.rax = rax;
	v->gprs.rbx = rbx;
	v->gprs.rcx = rcx;
	v->gprs.rdx = rdx;
	vcpu_step_known(v, 2);
	return EXIT_RESUME;
}

/* Leaves not in the table (or before it is filled): computed in full,
 * and kept as the last one when the answer cannot change while the loop
 * runs: not leaf 1 (APIC enable, CR4.OSXSAVE), 7.0 (CR4.PKE), 0xD.0 and
 * 0xD.1 (sizes for the guest's XCR0), the only inputs of the model
 * (hv/cpuid/) that move. The table is refilled, and this reset, when the
 * loop starts. */
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
	r.ecx &= ~(u32)CPUID_1_ECX_OSXSAVE; /* set per exit from CR4 */
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
		rcx |= CPUID_1_ECX_OSXSAVE;
	return cpuid_done(v, vm, rax, rbx, rcx, rdx);
}
