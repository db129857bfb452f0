// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/cpu_reset.c - a foreign guest's vCPU started in real mode:
 * after SIPI (SDM vol 3 9.4.4.1: CS.sel = vector << 8, IP 0) and at the
 * ACPI S3 resume (CS:IP from the FACS waking vector, s3.c). Real mode
 * under SVM needs nested paging (CR0.PG=0) and real-mode segment
 * attributes (APM vol 2 15.5.1). */
#include "arch/cr.h"
#include "hv/guest/guest.h"
#include "hv/vcpu/vcpu_pkrs.h"

void vcpu_start_real(struct vcpu *v, u16 cs, u16 ip)
{
	struct vmcb_save *s;
	u64 tsc_offset = v->vmcb->control.tsc_offset;
	const struct vmcb_seg data = { 0, 0x93, 0xffff, 0 };

	vcpu_reset(v, 0, 0, 0);
	vcpu_pkrs_enter(v); /* in its loop: the reset PKRS (0) in hardware */
	v->vmcb->control.tsc_offset = tsc_offset;
	s = &v->vmcb->save;
	s->cs = (struct vmcb_seg){ cs, 0x9b, 0xffff, (u64)cs << 4 };
	s->ds = s->es = s->ss = s->fs = s->gs = data;
	s->tr = (struct vmcb_seg){ 0, 0x8b, 0xffff, 0 };
	s->ldtr = (struct vmcb_seg){ 0, 0x82, 0xffff, 0 };
	s->gdtr = (struct vmcb_seg){ 0, 0, 0xffff, 0 };
	s->idtr = (struct vmcb_seg){ 0, 0, 0xffff, 0 };
	s->cr0 = CR0_ET; /* PE=0, PG=0 */
	s->cr3 = s->cr4 = 0;
	s->efer = EFER_SVME; /* VMRUN needs it; hidden from the guest */
	s->rflags = RFLAGS_FIXED; /* IF=0 */
	s->rip = ip;
	s->rsp = 0;
	v->vmcb->control.clean = 0;
	v->lapic.c.nmi_masked = v->lapic.c.iret_wait = false;
	v->lapic.c.nmi_step = v->lapic.c.nmi_step_rf = false;
	v->lapic.c.vtpr = 0;
	v->lapic.c.host_at = 0;
	vlapic_entry_work(&v->lapic); /* the next entry looks at everything */
}
