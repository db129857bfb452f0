// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/park_fakes.c - this_cpu() from the fake CPU the thread is,
 * ipi_call_on() that only records, page_alloc_ptr() from a static area. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "hv/features.h"
#include "hv/mm.h"
#include "hv/park/spec_ctrl.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/park_fakes.h"

static struct percpu pcs[PF_NCPUS];
static struct percpu *pcs_tab[PF_NCPUS];
struct percpu **g_percpu;
u32 g_ncpus;
struct pf_call pf_calls[64];
unsigned pf_ncalls;
enum tristate pf_rsb_fill;
static _Alignas(4096) unsigned char pool[64 * 1024];

void pf_reset(void)
{
	fake_cpu_reset();
	memset(pcs, 0, sizeof(pcs));
	for (u32 i = 0; i < PF_NCPUS; i++) {
		pcs[i].self = &pcs[i];
		pcs[i].cpu = i;
		pcs[i].online = 1;
		pcs_tab[i] = &pcs[i];
	}
	g_percpu = pcs_tab;
	g_ncpus = PF_NCPUS;
	pf_ncalls = 0;
	pf_rsb_fill = TRI_AUTO;
}

struct percpu *this_cpu(void)
{
	return &pcs[fake_cpu_current()];
}

u32 ipi_this_cpu(void)
{
	return fake_cpu_current();
}

u32 ipi_online_count(void)
{
	return PF_NCPUS;
}

int ipi_call_on(u32 cpu, ipi_fn fn, void *arg, bool wait)
{
	(void)arg;
	assert_true(pf_ncalls < 64);
	pf_calls[pf_ncalls++] =
		(struct pf_call){ fake_cpu_current(), cpu, fn, wait };
	return 0;
}

void *page_alloc_ptr(u64 npages)
{
	assert_true(npages * 4096 <= sizeof(pool));
	memset(pool, 0, sizeof(pool));
	return pool;
}

void pf_cpuid_amd(u32 ebx_80000008, u32 eax_80000021, u32 edx_8000000a)
{
	fake_cpuid_vendor("AuthenticAMD");
	fake_cpuid_set(1, 0, 0x00830f10, 0, 0, 0);
	fake_cpuid_set(0x80000001, 0, 0, 0, 1u << 2, 0); /* SVM */
	fake_cpuid_set(0x80000008, 0, 48, ebx_80000008, 0, 0);
	fake_cpuid_set(0x8000000a, 0, 1, 16, 0, 1u | edx_8000000a); /* NPT */
	fake_cpuid_set(0x80000021, 0, eax_80000021, 0, 0, 0);
}

void pf_cpuid_hypervisor(const char *sig12)
{
	u32 b, c, d;

	memcpy(&b, sig12, 4);
	memcpy(&c, sig12 + 4, 4);
	memcpy(&d, sig12 + 8, 4);
	fake_cpuid_or(1, 0, 2, 1u << 31); /* ECX[31]: hypervisor present */
	fake_cpuid_set(0x40000000, 0, 0x40000001, b, c, d);
}

void pf_cpuid_intel(u32 edx_7)
{
	fake_cpuid_vendor("GenuineIntel");
	fake_cpuid_set(1, 0, 0x00050654, 0, 0, 0);
	fake_cpuid_set(7, 0, 0, 0, 0, edx_7);
	fake_cpuid_set(0x80000008, 0, 46, 0, 0, 0);
}

void pf_boot_spec(bool snp_enabled)
{
	features_detect(&g_features);
	spec_ctrl_boot(snp_enabled, pf_rsb_fill);
	for (u32 i = 0; i < PF_NCPUS; i++) {
		fake_cpu_select(i);
		spec_ctrl_cpu_init();
	}
	fake_cpu_select(0);
	fake_trace_clear();
	fake_console_clear();
	for (u32 i = 0; i < PF_NCPUS; i++)
		fake_cpus[i].wrmsr_count = 0;
}
