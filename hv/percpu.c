// SPDX-License-Identifier: GPL-2.0-only
/* hv/percpu.c - per-CPU structure lookup through GS base.
 * gs:0 holds the structure's own address, so one load finds it. */
#include "hv/percpu.h"
#include "arch/cpu.h"
#include "arch/gdt.h"
#include "arch/msr.h"
#include "hv/log.h"
#include "hv/mm.h"

struct percpu **g_percpu;
u32 g_ncpus;

#ifdef MINHV_HOST_TEST
/* Host unit tests: one thread per fake CPU, no GS base. */
static _Thread_local struct percpu *host_this_cpu;

struct percpu *this_cpu(void)
{
	return host_this_cpu;
}

void percpu_install(struct percpu *pc)
{
	pc->self = pc;
	host_this_cpu = pc;
	wrmsr(MSR_GS_BASE, (u64)(uintptr_t)pc);
}
#else
struct percpu *this_cpu(void)
{
	return read_gs_self();
}

void percpu_install(struct percpu *pc)
{
	pc->self = pc;
	wrmsr(MSR_GS_BASE, (u64)(uintptr_t)pc);
}

/* ist_top[] is in IST order (NMI, #DF, #MC), as arch/gdt.h wants it. */
_Static_assert(IST_NMI == 1 && IST_DF == 2 && IST_MC == 3 && GDT_NR_IST == 3,
	       "percpu ist_top[] order is arch/gdt.h's");

void percpu_gdt_init(struct percpu *pc)
{
	void *page = page_alloc_ptr(1);

	CHECK(page);
	pc->tss = gdt_init_cpu(page, pc->ist_top);
}
#endif
