// SPDX-License-Identifier: GPL-2.0-only
/* hv/percpu.c - per-CPU structure lookup through GS base.
 * gs:0 holds the structure's own address, so one load finds it. */
#include "hv/percpu.h"
#include "arch/cpu.h"
#include "arch/msr.h"

struct percpu **g_percpu;
u32 g_ncpus;

struct percpu *this_cpu(void)
{
	return read_gs_self();
}

void percpu_install(struct percpu *pc)
{
	pc->self = pc;
	wrmsr(MSR_GS_BASE, (u64)(uintptr_t)pc);
}
