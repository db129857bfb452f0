// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/vmcb_build.c - build a guest's VMCB: intercepts, PAUSE filter,
 * ASID, nested paging and the initial 64-bit state (APM vol 2, 15.5,
 * 15.9-15.14, 15.25; the VMRUN consistency checks of 15.5.1). */
#include "arch/cr.h"
#include "arch/msr.h"
#include "hv/vmcb/vmcb.h"
#include "lib/string.h"

/* Segment attributes (15.5.1 packing): P, S, type; G, D/B, L. */
#define ATTR_CODE64 0xa9b /* G L P S type=B (exec/read, accessed) */
#define ATTR_CODE32 0xc9b /* G D/B P S type=B */
#define ATTR_DATA 0xc93 /* G D/B P S type=3 (read/write, accessed) */
#define ATTR_TSS64 0x08b /* P type=B (busy 64-bit TSS) */
#define ATTR_LDT 0x082

static void seg(struct vmcb_seg *s, u16 sel, u16 attr, u32 limit)
{
	s->selector = sel;
	s->attrib = attr;
	s->limit = limit;
	s->base = 0;
}

/* Every exit minhv handles, or must refuse (the SVM instructions: the
 * guest gets #UD), APM 15.9-15.13. */
/* clang-format off */
static const u16 intercepts[] = {
	INTERCEPT_INTR,	    INTERCEPT_NMI,	INTERCEPT_CPUID,
	INTERCEPT_HLT,	    INTERCEPT_INVLPGA,	INTERCEPT_IOIO_PROT,
	INTERCEPT_MSR_PROT, INTERCEPT_SHUTDOWN, INTERCEPT_VMRUN,
	INTERCEPT_VMMCALL,  INTERCEPT_VMLOAD,	INTERCEPT_VMSAVE,
	INTERCEPT_STGI,	    INTERCEPT_CLGI,	INTERCEPT_SKINIT,
	/* A guest INVD would discard the host's dirty lines; WBINVD (and
	 * WBNOINVD, which exits as WBINVD) has nothing to write back for. */
	INTERCEPT_INVD,	    INTERCEPT_WBINVD,
	/* MONITOR/MWAIT, and MONITORX/MWAITX, which exit through the same
	 * two (APM vol 3 MONITORX, MWAITX): CPUID hides both features, and
	 * a guest must not idle the physical CPU natively; #UD, as on a CPU
	 * without them (exit_svm_insn(), docs/SVM.md). */
	INTERCEPT_MONITOR,  INTERCEPT_MWAIT,
	/* XSETBV: VMRUN does not switch XCR0, so minhv must know and check
	 * the guest's value (exit_xsetbv.c, hv/vcpu/vcpu_fpu.c). */
	INTERCEPT_XSETBV,
	/* KVM's rule since CVE-2015-5307/CVE-2015-8104: a guest can make
	 * #AC or #DB delivery recurse forever inside the CPU; intercepted,
	 * every delivery leaves guest mode (then the watchdog can act).
	 * #MC belongs to the host (APM 15.12). */
	INTERCEPT_EXCEPTION(VEC_DB), INTERCEPT_EXCEPTION(VEC_AC),
	INTERCEPT_EXCEPTION(VEC_MC),
};
/* clang-format on */

static void build_control(struct vmcb *v, const struct features *f,
			  const struct pause_policy *p,
			  const struct vmcb_guest *g)
{
	struct vmcb_control *c = &v->control;

	for (unsigned i = 0; i < ARRAY_SIZE(intercepts); i++)
		vmcb_set_intercept(v, intercepts[i]);
	/* The filter values stay in the VMCB when PAUSE is not intercepted
	 * (they take effect only with the intercept, APM 15.14.4). */
	if (p->intercept)
		vmcb_set_intercept(v, INTERCEPT_PAUSE);
	c->pause_filter_count = p->count;
	c->pause_filter_threshold = p->threshold;
	c->iopm_base_pa = g->iopm.v;
	c->msrpm_base_pa = g->msrpm.v;
	c->asid = g->asid;
	/* The ASID may have served an earlier guest: flush on first run. */
	c->tlb_control = vmcb_first_tlb_control(f);
	/* Guest RFLAGS.IF masks only virtual interrupts (15.21.1). */
	c->v_intr = V_INTR_MASKING;
	c->np_enable = NP_ENABLE;
	c->n_cr3 = g->ncr3.v;
	/* Nothing cached: every field is (re)loaded. Set last, after the
	 * intercept setters' own vmcb_mark_dirty(). */
	c->clean = 0;
}

static void build_save(struct vmcb_save *s, const struct features *f,
		       const struct vmcb_guest *g)
{
	seg(&s->cs, 0x08, ATTR_CODE64, 0xffffffff);
	seg(&s->ds, 0x10, ATTR_DATA, 0xffffffff);
	seg(&s->es, 0x10, ATTR_DATA, 0xffffffff);
	seg(&s->ss, 0x10, ATTR_DATA, 0xffffffff);
	seg(&s->fs, 0x10, ATTR_DATA, 0xffffffff);
	seg(&s->gs, 0x10, ATTR_DATA, 0xffffffff);
	seg(&s->tr, 0, ATTR_TSS64, 0x67);
	seg(&s->ldtr, 0, ATTR_LDT, 0);
	seg(&s->gdtr, 0, 0, 0);
	seg(&s->idtr, 0, 0, 0);
	s->cpl = 0;
	s->efer = EFER_LME | EFER_LMA | EFER_SVME | (f->nx ? EFER_NXE : 0);
	s->cr0 = CR0_PE | CR0_MP | CR0_ET | CR0_NE | CR0_WP | CR0_PG;
	s->cr4 = CR4_PAE; /* never a bit CPUID lacks: VMRUN would fail */
	s->cr3 = g->cr3;
	s->dr6 = DR6_ACTIVE_LOW;
	s->dr7 = DR7_FIXED;
	s->rflags = RFLAGS_FIXED;
	s->rip = g->rip.v;
	s->rsp = g->rsp.v;
	s->g_pat = PAT_POWER_ON;
}

void vmcb_build(struct vmcb *v, const struct features *f,
		const struct pause_policy *p, const struct vmcb_guest *g)
{
	memset(v, 0, sizeof(*v));
	build_control(v, f, p, g);
	build_save(&v->save, f, g);
}

void vmcb_set_flat32(struct vmcb *v, u32 eip)
{
	struct vmcb_save *s = &v->save;

	seg(&s->cs, 0x08, ATTR_CODE32, 0xffffffff);
	seg(&s->tr, 0, ATTR_TSS64, 0xffff); /* busy TSS: VMRUN wants one */
	s->efer = EFER_SVME; /* required by VMRUN; LME/NXE are the guest's */
	s->cr0 = CR0_PE | CR0_ET;
	s->cr3 = 0;
	s->cr4 = 0;
	s->rflags = RFLAGS_FIXED;
	s->rip = eip;
	s->rsp = 0;
}
