// SPDX-License-Identifier: GPL-2.0-only
/* hv/percpu_gdt.c - a CPU's own GDT and TSS, in a pool page (the unit
 * tests, which have no GDT, link hv/percpu.c without it). */
#include "arch/gdt.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/percpu.h"

/* ist_top[] is in IST order (NMI, #DF, #MC), as arch/gdt.h wants it. */
_Static_assert(IST_NMI == 1 && IST_DF == 2 && IST_MC == 3 && GDT_NR_IST == 3,
	       "percpu ist_top[] order is arch/gdt.h's");

void percpu_gdt_init(struct percpu *pc)
{
	void *page = page_alloc_ptr(1);

	CHECK(page);
	pc->tss = gdt_init_cpu(page, pc->ist_top);
}
