// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/vmcb_dump.c - print the VMCB fields that explain an exit or a
 * failed VMRUN (APM vol 2, appendix B field names). */
#include "hv/log.h"
#include "hv/vmcb/vmcb.h"

static void seg(const char *n, const struct vmcb_seg *s)
{
	pr_err("  %-4s sel %#06x attr %#05x limit %#010x base %#llx\n", n,
	       s->selector, s->attrib, s->limit, (unsigned long long)s->base);
}

void vmcb_dump(const struct vmcb *v)
{
	const struct vmcb_control *c = &v->control;
	const struct vmcb_save *s = &v->save;

	pr_err("VMCB %p: exit %#llx info1 %#llx info2 %#llx intinfo %#llx\n",
	       (const void *)v, (unsigned long long)c->exit_code,
	       (unsigned long long)c->exit_info1,
	       (unsigned long long)c->exit_info2,
	       (unsigned long long)c->exit_int_info);
	pr_err("  intercepts cr %#x dr %#x exc %#x 1 %#x 2 %#x; pause %u/%u\n",
	       c->intercept_cr, c->intercept_dr, c->intercept_exceptions,
	       c->intercept1, c->intercept2, c->pause_filter_count,
	       c->pause_filter_threshold);
	pr_err("  asid %u tlb %u np %#llx ncr3 %#llx iopm %#llx msrpm %#llx\n",
	       c->asid, c->tlb_control, (unsigned long long)c->np_enable,
	       (unsigned long long)c->n_cr3,
	       (unsigned long long)c->iopm_base_pa,
	       (unsigned long long)c->msrpm_base_pa);
	pr_err("  eventinj %#llx v_intr %#llx clean %#x nrip %#llx\n",
	       (unsigned long long)c->event_inj, (unsigned long long)c->v_intr,
	       c->clean, (unsigned long long)c->next_rip);
	pr_err("  efer %#llx cr0 %#llx cr3 %#llx cr4 %#llx cpl %u\n",
	       (unsigned long long)s->efer, (unsigned long long)s->cr0,
	       (unsigned long long)s->cr3, (unsigned long long)s->cr4, s->cpl);
	pr_err("  rip %#llx rsp %#llx rflags %#llx rax %#llx dr6 %#llx dr7 %#llx\n",
	       (unsigned long long)s->rip, (unsigned long long)s->rsp,
	       (unsigned long long)s->rflags, (unsigned long long)s->rax,
	       (unsigned long long)s->dr6, (unsigned long long)s->dr7);
	seg("cs", &s->cs);
	seg("ss", &s->ss);
	seg("ds", &s->ds);
	seg("tr", &s->tr);
	seg("gdtr", &s->gdtr);
	seg("idtr", &s->idtr);
}
