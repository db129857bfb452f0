// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/rmpopt_topo.c - dense core numbers from APIC IDs, decided once at
 * boot (APM vol 3 appendix E.4.13, CPUID 0x8000001E). */
#include "arch/errno.h"
#include "hv/snp/rmpopt_topo.h"
#include "hv/mm.h"
#include "hv/percpu.h"

static u32 *core_of; /* [ncpus] */
static u32 ncores, ncpus;
static bool have_percpu;

static u32 smt_shift(u32 threads)
{
	u32 s = 0;

	while ((1U << s) < threads)
		s++;
	return s;
}

int rmpopt_topo_init(u32 threads_per_core)
{
	u32 shift = smt_shift(threads_per_core ? threads_per_core : 1);
	u64 pages;

	have_percpu = g_percpu && g_ncpus;
	ncpus = have_percpu ? g_ncpus : 1;
	pages = ALIGN_UP((u64)ncpus * sizeof(u32), PAGE_SIZE) / PAGE_SIZE;
	core_of = page_alloc_ptr(pages);
	if (!core_of)
		return -ENOMEM;
	ncores = have_percpu ? 0 : 1;
	for (u32 i = 0; have_percpu && i < ncpus; i++) {
		u32 key = g_percpu[i]->apic_id >> shift;
		u32 j;

		for (j = 0; j < i; j++)
			if (g_percpu[j]->apic_id >> shift == key)
				break;
		core_of[i] = j < i ? core_of[j] : ncores++;
	}
	return 0;
}

u32 rmpopt_ncores(void)
{
	return ncores;
}

u32 rmpopt_ncpus(void)
{
	return ncpus;
}

u32 rmpopt_core_of(u32 cpu)
{
	return cpu < ncpus ? core_of[cpu] : 0;
}

bool rmpopt_is_issuer(u32 cpu)
{
	if (!have_percpu)
		return cpu == 0;
	if (cpu >= ncpus || !g_percpu[cpu]->online)
		return false;
	for (u32 j = 0; j < cpu; j++)
		if (core_of[j] == core_of[cpu] && g_percpu[j]->online)
			return false;
	return true;
}
