// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/rmpopt.c - per-core RMPOPT_BASE programming, the timed RMPOPT and the
 * pending-regions set (AMD pub. 69201: RMPOPT_BASE must be enabled on a
 * core before RMPOPT runs there; one MSR per core covers 2 TiB). */
#include "arch/errno.h"
#include "hv/snp/rmpopt.h"
#include "arch/cpu.h"
#include "hv/smp/ipi.h"
#include "arch/spinlock.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "hv/snp/rmp.h"
#include "hv/snp/rmpopt_stats.h"
#include "hv/snp/rmpopt_topo.h"

#define WORDS (RMPOPT_REGIONS / 64)

static u64 base;
static enum rmpopt_mode mode;
static u8 *programmed; /* [ncores] */
static u64 pending[WORDS];
static u32 uncovered;
static spinlock_t pending_lock;

enum rmpopt_mode rmpopt_mode(void)
{
	return mode;
}

void rmpopt_ensure_base(void)
{
	u32 core = rmpopt_core_of(ipi_this_cpu());

	if (__atomic_load_n(&programmed[core], __ATOMIC_ACQUIRE))
		return;
	g_rmp->set_base(base | RMPOPT_BASE_EN);
	__atomic_store_n(&programmed[core], 1, __ATOMIC_RELEASE);
}

void rmpopt_core_lost(u32 cpu)
{
	__atomic_store_n(&programmed[rmpopt_core_of(cpu)], 0, __ATOMIC_RELEASE);
}

static void ensure_fn(void *arg)
{
	(void)arg;
	rmpopt_ensure_base();
}

int rmpopt_init(hpa_t b, enum rmpopt_mode m)
{
	u32 n = rmpopt_ncores();

	base = ALIGN_DOWN(b.v, SZ_1G);
	mode = m;
	programmed = page_alloc_ptr(ALIGN_UP(n ? n : 1, PAGE_SIZE) / PAGE_SIZE);
	if (!programmed || rmpopt_stats_init(rmpopt_ncpus()))
		return -ENOMEM;
	memset(pending, 0, sizeof(pending));
	uncovered = 0;
	/* One thread of each core writes the MSR; siblings find it done. */
	ipi_call_all(ensure_fn, NULL, true, true);
	return 0;
}

bool rmpopt_issue(hpa_t region, u64 func, enum rmpopt_role role)
{
	u64 t0, t1;
	bool opt;

	rmpopt_ensure_base();
	t0 = rdtsc();
	opt = g_rmp->opt(region, func);
	t1 = rdtsc();
	rmpopt_stats_record(ipi_this_cpu(), role, t1 - t0, opt);
	return opt;
}

u32 rmpopt_pending_add(hpa_t spa, u64 size)
{
	u64 first = ALIGN_DOWN(spa.v, SZ_1G);
	u64 end = ALIGN_UP(spa.v + size, SZ_1G);
	u32 left_out = 0;

	spin_lock(&pending_lock);
	for (u64 r = first; r < end; r += SZ_1G) {
		u64 k = (r - base) / SZ_1G;

		if (r < base || k >= RMPOPT_REGIONS) {
			left_out++;
			continue;
		}
		pending[k / 64] |= BIT(k % 64);
	}
	uncovered += left_out;
	spin_unlock(&pending_lock);
	return left_out;
}

u32 rmpopt_pending_count(void)
{
	u32 n = 0;

	spin_lock(&pending_lock);
	for (u32 w = 0; w < WORDS; w++)
		for (u64 v = pending[w]; v; v &= v - 1) /* no libgcc popcount */
			n++;
	spin_unlock(&pending_lock);
	return n;
}

u32 rmpopt_plan(const u64 *bitmap, hpa_t b, u64 *out, u32 max)
{
	u32 n = 0;

	for (u64 k = 0; k < RMPOPT_REGIONS && n < max; k++)
		if (bitmap[k / 64] & BIT(k % 64))
			out[n++] = ALIGN_DOWN(b.v, SZ_1G) + k * SZ_1G;
	return n;
}

u32 rmpopt_flush(void)
{
	static u64 taken[WORDS];
	static u64 regions[RMPOPT_REGIONS];
	static spinlock_t flush_lock; /* one pass at a time */
	u32 n;

	spin_lock(&flush_lock);
	spin_lock(&pending_lock);
	memcpy(taken, pending, sizeof(taken));
	memset(pending, 0, sizeof(pending));
	if (uncovered)
		pr_info("rmpopt: %u regions beyond the 2 TiB RMPOPT_BASE coverage left out\n",
			uncovered);
	uncovered = 0;
	spin_unlock(&pending_lock);

	n = rmpopt_plan(taken, hpa(base), regions, RMPOPT_REGIONS);
	if (n && mode == RMPOPT_MODE_BOTH && g_rmp->forget_opt) {
		rmpopt_pass(regions, n, RMPOPT_MODE_ALL);
		g_rmp->forget_opt(regions, n);
		rmpopt_pass(regions, n, RMPOPT_MODE_LEADER);
	} else if (n) {
		rmpopt_pass(regions, n,
			    mode == RMPOPT_MODE_ALL ? RMPOPT_MODE_ALL :
						      RMPOPT_MODE_LEADER);
	}
	spin_unlock(&flush_lock);
	return n;
}
