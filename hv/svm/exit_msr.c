// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_msr.c - MSR exits (APM vol 2, 15.11): an explicit allow-list
 * emulated here; host-critical MSRs (EFER.SVME, VM_CR, VM_HSAVE_PA,
 * SPEC_CTRL, MTRRs, APIC base) never reach hardware; the rest get #GP. */
#include "arch/apicdef.h"
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/msr.h"
#include "arch/errno.h"
#include "hv/svm/exit.h"
#include "hv/vmcb/exit_decode.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "hv/vcpu/vcpu_pkrs.h"
#include "hv/log.h"
#include "hv/view/view.h"
#include "hv/vlapic/vlapic.h"

#define MSR_GP_LOG_MAX 16 /* per vCPU: a probing guest cannot flood */

static bool pat_valid(u64 pat)
{
	for (unsigned i = 0; i < 8; i++) {
		u8 t = (pat >> (8 * i)) & 0xff;

		if (t == 2 || t == 3 || t > 7)
			return false;
	}
	return true;
}

/* Canonical for an MSR that holds a linear address: bits 63:N-1 all equal,
 * N = 57 on a CPU with 5-level paging, whatever CR4.LA57 says, else 48
 * (SDM vol 3A 4.5 and vol 4 "IA32_FS_BASE": WRMSR checks against the
 * widest linear address the processor supports; KVM does the same). */
static bool canonical(u64 a)
{
	const unsigned sh = g_features.la57 ? 7 : 16;

	return (u64)((s64)(a << sh) >> sh) == a;
}

static bool is_mtrr(u32 msr)
{
	return (msr >= MSR_MTRR_PHYSBASE(0) && msr <= MSR_MTRR_PHYSMASK(7)) ||
	       msr == MSR_MTRR_FIX64K_00000 || msr == MSR_MTRR_FIX16K_80000 ||
	       msr == MSR_MTRR_FIX16K_A0000 ||
	       (msr >= MSR_MTRR_FIX4K_C0000 && msr <= MSR_MTRR_FIX4K_C0000 + 7);
}

/* A foreign guest's local APIC (hv/vlapic/vlapic.h): IA32_APIC_BASE
 * and the x2APIC range. E_NOT_MINE when msr is not one of them. */
static int lapic_msr(struct vcpu *v, u32 msr, bool wr, u64 *val)
{
	struct vlapic *l = &v->lapic;

	if (!guest_has_platform(v->guest))
		return E_NOT_MINE;
	if (msr == MSR_TSC_DEADLINE)
		return vlapic_tsc_deadline_msr(v, wr, val);
	if (msr != MSR_APIC_BASE &&
	    (msr < MSR_X2APIC_BASE || msr > MSR_X2APIC_END)) {
		/* A TSC write moves the timers' clock: what expired by the
		 * old one fires first. Other MSRs need no sync (the entry
		 * path syncs TPR and timers). */
		if (wr && (msr == MSR_TSC || msr == MSR_TSC_ADJUST))
			vlapic_sync(v);
		return exit_msr_pmu(v, msr, wr, val);
	}
	/* An APIC register: TPR from CR8, the time for the timer (a write
	 * only for the timer's registers). */
	if (!wr)
		vlapic_sync_read(v);
	else if (msr != MSR_APIC_BASE)
		vlapic_sync_write(v, (msr - MSR_X2APIC_BASE) << 4);
	else
		vlapic_sync(v);
	if (msr == MSR_APIC_BASE) {
		if (wr) {
			int r = vlapic_apic_base_write(l, *val);

			if (r)
				return r;
			exit_cpuid_refresh_leaf1(v); /* EDX.APIC follows EN */
			return 0;
		}
		*val = vlapic_apic_base_read(l);
		return 0;
	}
	if (wr)
		return vlapic_msr_write(l, msr, *val);
	return vlapic_msr_read(l, msr, val);
}

/* TSC writes move this vCPU's TSC offset (APM 15.30.5); TSC_ADJUST moves
 * with them, and a write to it moves the TSC by the difference (SDM
 * 17.17.3). E_NOT_MINE when msr is neither. */
static int tsc_write(struct vcpu *v, u32 msr, u64 val)
{
	u64 old = v->vmcb->control.tsc_offset;

	/* vmcb_set_tsc_offset() also clears the clean bit that covers it. */
	if (msr == MSR_TSC) {
		vmcb_set_tsc_offset(v->vmcb, val - rdtsc());
		v->tsc_adjust += v->vmcb->control.tsc_offset - old;
		return 0;
	}
	if (msr == MSR_TSC_ADJUST && guest_tsc_adjust(v->guest)) {
		vmcb_set_tsc_offset(v->vmcb, old + val - v->tsc_adjust);
		v->tsc_adjust = val;
		return 0;
	}
	return E_NOT_MINE;
}

/* 0, or -EINVAL for #GP. */
int exit_msr_read(struct vcpu *v, u32 msr, u64 *val)
{
	struct vmcb_save *s = &v->vmcb->save;
	int r = lapic_msr(v, msr, false, val);

	if (r != E_NOT_MINE)
		return r;
	if (msr == MSR_TSC_ADJUST && guest_tsc_adjust(v->guest)) {
		*val = v->tsc_adjust;
		return 0;
	}
	switch (msr) {
	case MSR_EFER:
		*val = s->efer & ~EFER_SVME; /* SVM is hidden */
		return 0;
	case MSR_PAT:
		*val = s->g_pat;
		return 0;
	case MSR_TSC:
		*val = rdtsc() + v->vmcb->control.tsc_offset;
		return 0;
	case MSR_APIC_BASE: /* a fixed view; the real one is the host's */
		*val = APIC_DEFAULT_BASE | APIC_BASE_EN |
		       (v->id == 0 ? APIC_BASE_BSP : 0);
		return 0;
	case MSR_SPEC_CTRL:
		*val = v->gprs.spec_ctrl;
		return 0;
	case MSR_MTRRCAP:
		*val = 0; /* no variable ranges, no fixed, no WC */
		return 0;
	case MSR_MTRR_DEF_TYPE:
		*val = v->mtrr_def_type;
		return 0;
	case MSR_TSC_AUX:
		*val = v->tsc_aux;
		return 0;
	case MSR_PKRS: /* per vCPU, #GP without PKS (vcpu_pkrs.c) */
		return vcpu_pkrs_read(v, val);
	case MSR_MISC_ENABLE:
		if (!guest_has_platform(v->guest))
			return -EINVAL;
		*val = v->misc_enable;
		return 0;
	default:
		return v->guest->kind == GUEST_LINUX ?
			       linux_msr_read(v, msr, val) :
			       -EINVAL;
	}
}

/* Reads of these pass through (hv/vmcb/vmcb_pm.c); writes land here so the
 * canonical-address rule holds (TCG does not check it) and go to the
 * VMCB, which VMLOAD/VMRUN load on the next entry (APM 15.5.2). */
static int write_swapped(struct vcpu *v, u32 msr, u64 val)
{
	struct vmcb_save *s = &v->vmcb->save;

	switch (msr) {
	case MSR_FS_BASE:
	case MSR_GS_BASE:
	case MSR_KERNEL_GS_BASE:
	case MSR_LSTAR:
	case MSR_CSTAR:
	case MSR_SYSENTER_ESP:
	case MSR_SYSENTER_EIP:
		if (!canonical(val))
			return -EINVAL;
		break;
	case MSR_SFMASK:
	case MSR_SYSENTER_CS:
		if (val >> 32)
			return -EINVAL;
		break;
	}
	switch (msr) {
	case MSR_FS_BASE:
		s->fs.base = val;
		break;
	case MSR_GS_BASE:
		s->gs.base = val;
		break;
	case MSR_KERNEL_GS_BASE:
		s->kernel_gs_base = val;
		break;
	case MSR_STAR:
		s->star = val;
		break;
	case MSR_LSTAR:
		s->lstar = val;
		break;
	case MSR_CSTAR:
		s->cstar = val;
		break;
	case MSR_SFMASK:
		s->sfmask = val;
		break;
	case MSR_SYSENTER_CS:
		s->sysenter_cs = val;
		break;
	case MSR_SYSENTER_ESP:
		s->sysenter_esp = val;
		break;
	case MSR_SYSENTER_EIP:
		s->sysenter_eip = val;
		break;
	default:
		return E_NOT_MINE;
	}
	return 0;
}

int exit_msr_write(struct vcpu *v, u32 msr, u64 val)
{
	struct vmcb_save *s = &v->vmcb->save;
	u64 ok_efer = EFER_SCE | EFER_LME | EFER_LMA |
		      (g_features.nx ? EFER_NXE : 0);
	int r = write_swapped(v, msr, val);

	if (r != E_NOT_MINE)
		return r;
	r = lapic_msr(v, msr, true, &val);
	if (r != E_NOT_MINE)
		return r;
	r = tsc_write(v, msr, val);
	if (r != E_NOT_MINE)
		return r;
	switch (msr) {
	case MSR_EFER:
		/* SVME must stay set for VMRUN (15.5.1) and is hidden. */
		if (val & ~ok_efer)
			return -EINVAL;
		if (((val ^ s->efer) & EFER_LME) && (s->cr0 & CR0_PG))
			return -EINVAL; /* LME cannot change while paging is on */
		vmcb_set_efer(v->vmcb, (val & ~EFER_LMA) |
					       (s->efer & EFER_LMA) |
					       EFER_SVME);
		return 0;
	case MSR_PAT:
		if (!pat_valid(val))
			return -EINVAL;
		vmcb_set_g_pat(v->vmcb, val);
		return 0;
	case MSR_SPEC_CTRL: /* in hardware while the guest runs: the VMRUN
			     * stub or V_SPEC_CTRL (vcpu_spec.c) */
		if (val & ~(SPEC_CTRL_IBRS | SPEC_CTRL_STIBP | SPEC_CTRL_SSBD))
			return -EINVAL;
		v->gprs.spec_ctrl = val;
		return 0;
	case MSR_PRED_CMD:
		if (val & ~1ULL)
			return -EINVAL;
		/* IBPB: the guest asks to flush indirect branch predictions
		 * (a context switch of its own); do it as KVM does. */
		if (val && g_features.ibpb)
			wrmsr(MSR_PRED_CMD, val);
		return 0;
	case MSR_TSC_AUX:
		/* RDTSCP is not intercepted: the guest's value must be in
		 * the hardware MSR while it runs (restored in vcpu_run). */
		if (val >> 32)
			return -EINVAL;
		v->tsc_aux = val;
		if (g_features.rdtscp)
			wrmsr(MSR_TSC_AUX, val);
		return 0;
	case MSR_PKRS: /* in hardware while the guest runs (vcpu_pkrs.c) */
		return vcpu_pkrs_write(v, val);
	case MSR_MISC_ENABLE:
		/* AMD parts have no 0x1A0; KVM and QEMU give every guest one,
		 * and guests written for Intel (kvm-unit-tests' msr) use it.
		 * A store only: no bit changes what minhv does. */
		if (!guest_has_platform(v->guest))
			return -EINVAL;
		v->misc_enable = val;
		return 0;
	case MSR_MTRR_DEF_TYPE:
		if (val & ~(MTRR_DEF_TYPE_E | MTRR_DEF_TYPE_FE | 0xffULL))
			return -EINVAL;
		v->mtrr_def_type = val;
		return 0;
	default:
		return v->guest->kind == GUEST_LINUX ?
			       linux_msr_write(v, msr, val) :
			       -EINVAL;
	}
}

static const char *critical(u32 msr)
{
	if (msr == MSR_VM_CR || msr == MSR_VM_HSAVE_PA)
		return " (SVM control, host-critical)";
	if (msr == MSR_APIC_BASE || msr == MSR_SPEC_CTRL || is_mtrr(msr) ||
	    msr == MSR_MTRRCAP || msr == MSR_AMD_SYSCFG)
		return " (host-critical)";
	return "";
}

/* Out of line: logged and injected, rare. */
static __attribute__((noinline, cold)) enum exit_action msr_gp(struct vcpu *v,
							       u32 msr, bool wr)
{
	if (v->stats.msr_gp++ < MSR_GP_LOG_MAX)
		pr_info("guest %s vCPU %u: %s MSR %#x%s -> #GP\n",
			v->guest->name, v->id, wr ? "wrmsr" : "rdmsr", msr,
			critical(msr));
	vcpu_inject_exception(v, VEC_GP, true, 0);
	return EXIT_RESUME;
}

/* The instruction done: RDMSR and WRMSR are 2 bytes (0F 32, 0F 30). */
static inline enum exit_action msr_done(struct vcpu *v)
{
	vcpu_step_known(v, 2);
	return EXIT_RESUME;
}

static __attribute__((noinline)) enum exit_action msr_general(struct vcpu *v,
							      bool wr, u32 msr)
{
	struct vmcb *vm = v->vmcb;
	u64 val = 0;
	int r;

	if (wr)
		val = (v->gprs.rdx << 32) | (u32)vm->save.rax;
	/* A foreign guest's x2APIC registers and TSC deadline straight to
	 * the vLAPIC (exit_msr_read() and _write() would reach it after
	 * their own lists). */
	if (guest_has_platform(v->guest) &&
	    (msr - MSR_X2APIC_BASE <= MSR_X2APIC_END - MSR_X2APIC_BASE ||
	     msr == MSR_TSC_DEADLINE))
		r = lapic_msr(v, msr, wr, &val);
	else if (wr)
		r = exit_msr_write(v, msr, val);
	else
		r = exit_msr_read(v, msr, &val);
	if (__builtin_expect(r != 0, 0))
		return msr_gp(v, msr, wr);
	if (!wr) {
		vm->save.rax = (u32)val;
		v->gprs.rdx = val >> 32;
	}
	return msr_done(v);
}

/* Every MSR exit. The writes of an interrupt-driven foreign guest go
 * first, with no frame of their own: x2APIC EOI (only ISR changes) and
 * IA32_TSC_DEADLINE, one of each per timer interrupt. */
enum exit_action exit_msr(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	bool wr = msr_exit_is_write(vm->control.exit_info1);
	u32 msr = (u32)v->gprs.rcx;
	u64 val;
	int r;

	if (!wr || !guest_has_platform(v->guest) ||
	    (msr != X2APIC_MSR(APIC_REG_EOI) && msr != MSR_TSC_DEADLINE))
		return msr_general(v, wr, msr);
	val = (v->gprs.rdx << 32) | (u32)vm->save.rax;
	/* A deadline already passed (kvm-unit-tests' tscdeadline, a guest
	 * re-arming late): its interrupt injected from here. */
	if (msr == MSR_TSC_DEADLINE && vlapic_tsc_deadline_now(v, val))
		return EXIT_RESUME;
	r = msr == X2APIC_MSR(APIC_REG_EOI) ?
		    vlapic_x2apic_eoi(&v->lapic, val) :
		    vlapic_tsc_deadline_msr(v, true, &val);
	if (__builtin_expect(r != 0, 0))
		return msr_gp(v, msr, wr);
	return msr_done(v);
}
