// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/vmcb_check.c - name the VMRUN consistency rule a VMCB breaks (APM
 * vol 2, 15.5.1 "Canonicalization and Consistency Checks"), so that a
 * VMEXIT_INVALID says why instead of only dumping numbers. */
#include "arch/cr.h"
#include "arch/msr.h"
#include "hv/vmcb/vmcb.h"

/* SCE LME LMA NXE SVME LMSLE FFXSR TCE (and AutoIBRS on newer parts). */
#define EFER_KNOWN                                                           \
	(BIT(0) | BIT(8) | BIT(10) | BIT(11) | BIT(12) | BIT(13) | BIT(14) | \
	 BIT(15) | BIT(21))

const char *vmcb_check(const struct vmcb *v, const struct features *f)
{
	const struct vmcb_control *c = &v->control;
	const struct vmcb_save *s = &v->save;
	u64 pa_limit = 1ULL << (f->phys_addr_bits ? f->phys_addr_bits : 36);
	bool long_pg = (s->efer & EFER_LME) && (s->cr0 & CR0_PG);
	u64 ev = c->event_inj, type = (ev >> 8) & 7, vec = ev & 0xff;

	if (!(s->efer & EFER_SVME))
		return "guest EFER.SVME is clear";
	if (s->efer & ~EFER_KNOWN)
		return "guest EFER has reserved bits set";
	if ((s->cr0 & CR0_NW) && !(s->cr0 & CR0_CD))
		return "guest CR0.NW set without CR0.CD";
	if (s->cr0 >> 32)
		return "guest CR0[63:32] not zero";
	if (s->cr3 >> 52)
		return "guest CR3 has MBZ bits 63:52 set";
	/* The bits CPUID says exist (LA57 on Zen 4/5, PKS, ...). */
	if (s->cr4 & ~features_cr4_valid(f))
		return "guest CR4 has reserved bits set";
	if ((s->dr6 >> 32) || (s->dr7 >> 32))
		return "guest DR6/DR7 bits 63:32 not zero";
	if (long_pg && !(s->cr4 & CR4_PAE))
		return "EFER.LME and CR0.PG without CR4.PAE";
	if (long_pg && !(s->cr0 & CR0_PE))
		return "EFER.LME and CR0.PG without CR0.PE";
	if (long_pg && (s->cs.attrib & SEG_ATTR_L) &&
	    (s->cs.attrib & SEG_ATTR_D))
		return "long mode with CS.L and CS.D both set";
	if (!vmcb_has_intercept(v, INTERCEPT_VMRUN))
		return "VMRUN intercept clear";
	if (!c->asid)
		return "ASID 0 (reserved for the host)";
	if (c->iopm_base_pa + IOPM_PAGES * PAGE_SIZE > pa_limit ||
	    c->msrpm_base_pa + MSRPM_PAGES * PAGE_SIZE > pa_limit)
		return "IOPM or MSRPM beyond the physical address range";
	if ((ev & EVENTINJ_VALID) &&
	    (type == 1 || type >= 5 ||
	     (type == 3 && (vec == VEC_NMI || vec >= VEC_NR_EXCEPTIONS))))
		return "EVENTINJ with an illegal type or vector";
	if (c->np_enable & NP_ENABLE && (c->n_cr3 >> 52))
		return "nCR3 has MBZ bits set";
	return NULL;
}
