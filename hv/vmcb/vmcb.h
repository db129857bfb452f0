/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vmcb/vmcb.h - the VMCB builder, permission maps and VMRUN checks; the
 * hardware layout, intercept numbers and exit codes are in arch/vmcb.h. */
#ifndef MINHV_HV_VMCB_VMCB_H
#define MINHV_HV_VMCB_VMCB_H

#include "arch/vmcb.h"

/* Print the VMCB fields that explain an exit or a failed VMRUN. */
void vmcb_dump(const struct vmcb *v);

#include "hv/features.h"
#include "hv/vmcb/pause.h"

#define IOPM_PAGES 3 /* 12 KiB, APM 15.10.1 */
#define MSRPM_PAGES 2 /* 8 KiB, APM 15.11 */

/* What varies per guest and vCPU; everything else follows from features. */
struct vmcb_guest {
	u32 asid; /* non-zero */
	hpa_t iopm, msrpm, ncr3;
	u64 cr3; /* guest CR3 (a GPA) */
	gpa_t rip, rsp;
};

/* Fill a zeroed VMCB: intercepts, PAUSE filter, ASID, nested paging and
 * a 64-bit long-mode guest state. Pure: reads only its arguments. */
void vmcb_build(struct vmcb *v, const struct features *f,
		const struct pause_policy *p, const struct vmcb_guest *g);
/* Turn the initial state into 32-bit flat protected mode, paging off
 * (Multiboot 3.2): CR0.PE only, EFER.SVME only, flat 4 GiB segments. */
void vmcb_set_flat32(struct vmcb *v, u32 eip);
/* What the first VMRUN of a freshly built VMCB flushes: only the guest's
 * ASID when the CPU can (flush-by-ASID, CPUID 0x8000000A:EDX[6]; the ASID
 * may hold a destroyed guest's translations), else everything (15.16.1). */
static inline u8 vmcb_first_tlb_control(const struct features *f)
{
	return f->flush_by_asid ? TLB_CONTROL_FLUSH_ASID :
				  TLB_CONTROL_FLUSH_ALL;
}

/* The clean bits set after each #VMEXIT: every group (handlers mark what
 * they change dirty) with VMCB clean bits (CPUID 0x8000000A:EDX[5]),
 * else 0, the only value a CPU without them must see (APM 15.15.3). */
static inline u32 vmcb_clean_mask(const struct features *f)
{
	return f->vmcb_clean ? VMCB_CLEAN_ALL : 0;
}

/* The run loop, right after #VMEXIT and before any handler: the TLB needs
 * no flush on the next VMRUN and nothing has changed yet (clean is
 * vmcb_clean_mask()). Handlers then mark what they write dirty. */
static inline void vmcb_after_exit(struct vmcb *v, u32 clean)
{
	v->control.tlb_control = TLB_CONTROL_NOTHING;
	v->control.clean = clean;
}

/* IOPM: every port intercepted (all ones). */
void vmcb_iopm_build(void *iopm);
/* MSRPM: every MSR intercepted except the pass-through allow-list. */
void vmcb_msrpm_build(void *msrpm);
/* Bit offset of msr's read bit in the MSRPM (write bit = +1), or -ERANGE for
 * MSRs outside the three ranges (those always exit). APM 15.11. */
long vmcb_msrpm_bit(u32 msr);
bool vmcb_msrpm_intercepts(const void *msrpm, u32 msr, bool write);
/* The first VMRUN consistency rule (15.5.1) v breaks, or NULL. */
const char *vmcb_check(const struct vmcb *v, const struct features *f);

#endif
