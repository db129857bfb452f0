// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/snp_env.c - fake cross-CPU calls, percpu table, pool and RMP
 * instruction doubles for the SNP unit tests (host only). */
#define _GNU_SOURCE /* MAP_FIXED_NOREPLACE */
#include "tests/unit/snp_env.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/features.h"
#include "hv/smp/ipi.h"
#include "hv/snp/snp.h"
#include "hv/ktap.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/state_hooks.h"

struct percpu **g_percpu;
u32 g_ncpus;
unsigned env_ncpus;
static struct percpu pcs[FAKE_NCPUS];
static struct percpu *pcp[FAKE_NCPUS];
static void *pool;

unsigned fake_rmpupdate_calls, fake_psmash_calls, fake_rmpopt_calls;
bool fake_rmpopt_cf;
unsigned fake_wbnoinvd[FAKE_NCPUS];
static u32 script[64];
static unsigned script_n, script_i;

u64 env_splits[ENV_MAX_SPLITS];
unsigned env_nsplits, env_4k_in_host_2m;
bool env_split_fails;

bool env_host_2m_mapped(u64 spa)
{
	for (unsigned i = 0; i < env_nsplits; i++)
		if (env_splits[i] == ALIGN_DOWN(spa, SZ_2M))
			return false;
	return true;
}

static int env_split(hpa_t spa)
{
	if (env_split_fails)
		return -1;
	if (env_host_2m_mapped(spa.v)) {
		assert_true(env_nsplits < ENV_MAX_SPLITS);
		env_splits[env_nsplits++] = ALIGN_DOWN(spa.v, SZ_2M);
		fake_trace_note("split %#llx",
				(unsigned long long)ALIGN_DOWN(spa.v, SZ_2M));
		/* No real page table: no pool page taken (0), so the
		 * pool counts of the tests stay exact. */
	}
	return 0;
}

void env_setup(unsigned ncpus, unsigned threads_per_core, bool hardware)
{
	assert_true(ncpus <= FAKE_NCPUS);
	fake_cpu_reset();
	fake_console_clear();
	ktap_reset();
	memset(pcs, 0, sizeof(pcs));
	for (unsigned i = 0; i < ncpus; i++) {
		pcs[i].cpu = i;
		pcs[i].apic_id = i;
		pcs[i].online = 1;
		pcp[i] = &pcs[i];
	}
	g_percpu = pcp;
	g_ncpus = env_ncpus = ncpus;

	memset(&g_features, 0, sizeof(g_features));
	g_features.vendor = VENDOR_AMD;
	g_features.threads_per_core = threads_per_core;
	g_features.snp = g_features.rmpopt = hardware;
	g_features.segmented_rmp = hardware;
	env_nsplits = env_4k_in_host_2m = 0;
	env_split_fails = false;
	snp_host_map_hook(env_split);
	fake_msr_define(MSR_AMD_RMP_CFG, hardware ? RMP_CFG_SEGMENTED_EN : 0);
	fake_msr_define(MSR_AMD_SYSCFG, hardware ? SYSCFG_SNP_EN : 0);
	fake_msr_define(MSR_AMD_RMP_BASE, hardware ? 0x80000000ULL : 0);
	fake_msr_define(MSR_AMD_RMP_END, hardware ? 0x8fffffffULL : 0);
	fake_msr_define(MSR_AMD_RMPOPT_BASE, 0);

	if (!pool) {
		pool = mmap((void *)ENV_POOL_BASE, ENV_POOL_PAGES * PAGE_SIZE,
			    PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			    -1, 0);
		assert_true(pool == (void *)ENV_POOL_BASE);
	}
	mm_reset();
	assert_int_equal(mm_add_region(hpa(ENV_POOL_BASE), ENV_POOL_PAGES), 0);

	fake_rmpupdate_calls = fake_psmash_calls = fake_rmpopt_calls = 0;
	fake_rmpopt_cf = true;
	memset(fake_wbnoinvd, 0, sizeof(fake_wbnoinvd));
	script_n = script_i = 0;
}

/* hv/smp/ipi.h on fake CPUs: run fn on each online CPU in turn. */
int ipi_call_on(u32 cpu, ipi_fn fn, void *arg, bool wait)
{
	unsigned me = fake_cpu_current();

	(void)wait;
	if (cpu >= env_ncpus || !pcs[cpu].online)
		return -1;
	fake_cpu_select(cpu);
	fn(arg);
	fake_cpu_select(me);
	return 0;
}

int ipi_call_all(ipi_fn fn, void *arg, bool wait, bool include_self)
{
	unsigned me = fake_cpu_current();
	int n = 0;

	for (unsigned i = 0; i < env_ncpus; i++)
		if (i != me && !ipi_call_on(i, fn, arg, wait))
			n++;
	if (include_self) {
		fn(arg);
		n++;
	}
	return n;
}

u32 ipi_online_count(void)
{
	u32 n = 0;

	for (unsigned i = 0; i < env_ncpus; i++)
		n += pcs[i].online;
	return n;
}

u32 ipi_this_cpu(void)
{
	return fake_cpu_current();
}

/* arch/rmp.h doubles. */
void fake_rmpupdate_script(const u32 *codes, unsigned n)
{
	assert_true(n <= 64);
	memcpy(script, codes, n * sizeof(*codes));
	script_n = n;
	script_i = 0;
}

u32 rmpupdate_insn(hpa_t spa, const struct rmp_state *st)
{
	u32 rc = script_i < script_n ? script[script_i++] : 0;

	fake_rmpupdate_calls++;
	/* On hardware the host would take an RMP #PF at its next write
	 * anywhere in that 2 MiB: a 4 KiB page must not be assigned while
	 * the host still maps it with a large page. */
	if (st->assigned && st->pagesize == RMP_PG_4K &&
	    env_host_2m_mapped(spa.v))
		env_4k_in_host_2m++; /* counted: asserting here would leave
					the caller's lock held */
	fake_trace_note("rmpupdate %#llx assigned %u size %u asid %u -> %u",
			(unsigned long long)spa.v, st->assigned, st->pagesize,
			st->asid, rc);
	return rc;
}

u32 psmash_insn(hpa_t spa)
{
	fake_psmash_calls++;
	fake_trace_note("psmash %#llx", (unsigned long long)spa.v);
	return 0;
}

bool rmpopt_insn(hpa_t region, u64 func)
{
	unsigned cpu = fake_cpu_current(), tpc = g_features.threads_per_core;
	unsigned first = cpu - cpu % (tpc ? tpc : 1);
	bool base = false;

	/* The MSR is per core: any thread of the core may have written it.
	 * Hardware raises #UD when the core's RMPOPT_BASE is not enabled. */
	for (unsigned t = first; t < first + (tpc ? tpc : 1); t++)
		base |= fake_msr_read(t, MSR_AMD_RMPOPT_BASE) & RMPOPT_BASE_EN;
	if (!base)
		fail_msg("#UD: RMPOPT on cpu%u before RMPOPT_BASE", cpu);
	fake_rmpopt_calls++;
	fake_trace_note("rmpopt %#llx %llu", (unsigned long long)region.v,
			(unsigned long long)func);
	return fake_rmpopt_cf;
}

void wbnoinvd(void)
{
	fake_wbnoinvd[fake_cpu_current()]++;
	fake_trace_note("wbnoinvd");
}
