// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/snp_scenario.c - boot scenario for SNP teardown + RMPOPT: guests A, B
 * and C own pool pages and (model only) synthetic pages above RAM; A and B
 * share regions. Checks the per-CPU RMPOPT bits after each pass (KTAP). */
#include "hv/selftest/selftest.h"
#include "hv/snp/snp.h"
#include "hv/ktap.h"
#include "lib/fmt.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/snp/rmp.h"
#include "hv/snp/rmp_model.h"
#include "hv/snp/rmpopt_stats.h"
#include "hv/snp/rmpopt_topo.h"

/* Synthetic guest memory for the model: far above the 1-2 GiB of RAM the
 * QEMU runs have, inside the 2 TiB RMPOPT coverage. Never accessed. */
#define SYNTH (64 * SZ_1G)
#define MAXR 8
#define ASID_A 1
#define ASID_B 2
#define ASID_C 3

struct rset {
	u32 n;
	u64 r[MAXR];
};

static void rs_add(struct rset *s, u64 spa)
{
	u64 r = ALIGN_DOWN(spa, SZ_1G);

	for (u32 i = 0; i < s->n; i++)
		if (s->r[i] == r)
			return;
	if (s->n < MAXR)
		s->r[s->n++] = r;
}

static bool rs_has(const struct rset *s, u64 r)
{
	for (u32 i = 0; i < s->n; i++)
		if (s->r[i] == r)
			return true;
	return false;
}

/* Every region of s reports optimized on all CPUs (want) or on none. */
static bool regions_are(const struct rset *s, bool want, u64 *bad)
{
	for (u32 i = 0; i < s->n; i++) {
		u32 ncpus, opt = rmpopt_report_all(hpa(s->r[i]), &ncpus);

		if (want ? opt != ncpus || !ncpus : opt != 0) {
			*bad = s->r[i];
			return false;
		}
	}
	return true;
}

static int give(u32 asid, hpa_t h, u64 size, unsigned flags, struct rset *s)
{
	rs_add(s, h.v);
	rs_add(s, h.v + size - 1);
	return snp_guest_assign(asid, h, gpa(h.v & (SZ_1G - 1)), size, flags);
}

static void report(const char *name, bool ok, const char *what, u64 bad)
{
	ktap_ok(name, ok, "%s (region %#llx)", what, (unsigned long long)bad);
}

void snp_boot_scenario(void)
{
	bool model = g_rmp == &rmp_model_ops;
	struct rset a = { 0 }, b = { 0 }, c = { 0 }, only_a = { 0 },
		    shared = { 0 }, all = { 0 };
	u64 free0 = mm_free_pages(), leaked0 = snp_leaked_pages(), bad = 0;
	u64 split0 = snp_host_map_pages();
	hpa_t a2m, a4k, b4k, c4k;
	u32 passes0, want_passes;
	int rc = 0;
	struct rmp_state st;

	if (!g_snp.ready) {
		ktap_skip("snp.scenario", "SNP layer not initialised");
		return;
	}
	ktap_ok("snp.backend", model == !g_snp.rmpopt_usable,
		"back end %s with snp_en=%d rmpopt=%d segmented-rmp-enabled=%d",
		g_rmp->name, g_snp.snp_en, g_snp.rmpopt, g_snp.segmented_en);

	a2m = page_alloc(RMP_2M_PAGES, RMP_2M_PAGES);
	a4k = page_alloc(4, 1);
	b4k = page_alloc(4, 1);
	c4k = page_alloc(1, 1);
	if (!a2m.v || !a4k.v || !b4k.v || !c4k.v) {
		ktap_ok("snp.scenario", false, "page pool too small");
		return;
	}
	/* Before any guest, snp_init()'s pass optimized the pool's RAM. */
	rs_add(&all, a4k.v);
	report("snp.initial_pass_optimized", regions_are(&all, true, &bad),
	       "RAM not optimized on every CPU after the first pass", bad);

	rc |= give(ASID_A, a2m, SZ_2M, 0, &a);
	rc |= give(ASID_A, a4k, 4 * PAGE_SIZE, 0, &a);
	rc |= give(ASID_B, b4k, 4 * PAGE_SIZE, 0, &b);
	rc |= give(ASID_C, c4k, PAGE_SIZE, 0, &c);
	if (model) {
		/* A alone in SYNTH; A and B share SYNTH + 1 GiB; B alone in
		 * SYNTH + 2 GiB; C in SYNTH + 3 GiB. */
		rc |= give(ASID_A, hpa(SYNTH), SZ_2M, SNP_MEM_NOFREE, &a);
		rc |= give(ASID_A, hpa(SYNTH + SZ_1G + 0x10000), 8 * PAGE_SIZE,
			   SNP_MEM_NOFREE, &a);
		rc |= give(ASID_B, hpa(SYNTH + SZ_1G + 0x20000000), SZ_2M,
			   SNP_MEM_NOFREE, &b);
		rc |= give(ASID_B, hpa(SYNTH + 2 * SZ_1G), 3 * SZ_2M,
			   SNP_MEM_NOFREE, &b);
		rc |= give(ASID_C, hpa(SYNTH + 3 * SZ_1G), PAGE_SIZE,
			   SNP_MEM_NOFREE, &c);
	}
	for (u32 i = 0; i < a.n; i++) {
		rs_add(rs_has(&b, a.r[i]) ? &shared : &only_a, a.r[i]);
		rs_add(&all, a.r[i]);
	}
	for (u32 i = 0; i < b.n; i++)
		rs_add(&all, b.r[i]);
	for (u32 i = 0; i < c.n; i++)
		rs_add(&all, c.r[i]);
	ktap_ok("snp.assign",
		!rc && snp_guest_pages(ASID_A) == (model ? 516 + 520 : 516),
		"assign failed (%d) or A tracks %llu pages", rc,
		(unsigned long long)snp_guest_pages(ASID_A));
	report("snp.assign_unoptimizes_every_cpu",
	       regions_are(&all, false, &bad),
	       "a region with guest pages still optimized on some CPU", bad);

	/* Give back one 4 KiB page out of A's 2 MiB entry: PSMASH first. */
	rc = snp_guest_reclaim(ASID_A, hpa(a2m.v + SZ_2M / 2), PAGE_SIZE);
	if (model)
		ktap_ok("snp.psmash_partial_reclaim",
			!rc && !rmp_model_lookup(hpa(a2m.v + SZ_2M / 2), &st) &&
				rmp_model_lookup(a2m, &st) &&
				st.pagesize == RMP_PG_4K && st.asid == ASID_A,
			"partial reclaim of a 2M entry (rc %d)", rc);
	else
		ktap_ok("snp.psmash_partial_reclaim", !rc, "rc %d", rc);

	rc = snp_guest_teardown(ASID_A);
	ktap_ok("snp.teardown_a", !rc && !snp_guest_pages(ASID_A),
		"teardown of A leaked %d pages", rc);
	snp_rmpopt_flush();
	report("snp.shared_regions_stay_unoptimized",
	       regions_are(&shared, false, &bad),
	       "region still holding B's pages optimized on some CPU", bad);
	if (only_a.n)
		report("snp.freed_regions_optimized_every_cpu",
		       regions_are(&only_a, true, &bad),
		       "region A alone used not optimized on every CPU", bad);
	else
		ktap_skip("snp.freed_regions_optimized_every_cpu",
			  "hardware back end: no region used by A alone");

	/* B and C close together: one pass (two on the model with
	 * rmpopt=both, one per schedule). */
	passes0 = rmpopt_stats_passes();
	want_passes = rmpopt_mode() == RMPOPT_MODE_BOTH && model ? 2 : 1;
	rc = snp_guest_teardown(ASID_B);
	rc |= snp_guest_teardown(ASID_C);
	snp_rmpopt_flush();
	ktap_ok("snp.teardowns_batched",
		!rc && rmpopt_stats_passes() - passes0 == want_passes,
		"%u passes for two teardowns (want %u), rc %d",
		rmpopt_stats_passes() - passes0, want_passes, rc);
	report("snp.all_regions_optimized_every_cpu",
	       regions_are(&all, true, &bad),
	       "region not optimized on every CPU after the last teardown",
	       bad);
	/* Page tables that split the host's large mappings around 4 KiB
	 * guest pages stay (the host map is not merged back). */
	ktap_ok("snp.pages_back_in_pool",
		mm_free_pages() + (snp_host_map_pages() - split0) == free0 &&
			snp_leaked_pages() == leaked0,
		"pool has %llu free pages, had %llu; %llu leaked; %llu host page-table pages for 4 KiB splits",
		(unsigned long long)mm_free_pages(), (unsigned long long)free0,
		(unsigned long long)(snp_leaked_pages() - leaked0),
		(unsigned long long)(snp_host_map_pages() - split0));
	{
		const struct rmpopt_summary *s = rmpopt_stats_last();

		ktap_ok("snp.rmpopt_stats",
			s->all.count &&
				s->all.count ==
					(u64)s->regions * rmpopt_ncores() &&
				s->all.min <= rmpopt_cycles_avg(&s->all) &&
				rmpopt_cycles_avg(&s->all) <= s->all.max,
			"%llu RMPOPTs for %u regions x %u cores, min/avg/max %llu/%llu/%llu",
			(unsigned long long)s->all.count, s->regions,
			rmpopt_ncores(), (unsigned long long)s->all.min,
			(unsigned long long)rmpopt_cycles_avg(&s->all),
			(unsigned long long)s->all.max);
	}
	if (model)
		ktap_ok("snp.rmpopt_base_before_rmpopt",
			rmp_model_ud_count() == 0,
			"%llu RMPOPTs ran on a core without RMPOPT_BASE",
			(unsigned long long)rmp_model_ud_count());
	else
		ktap_skip("snp.rmpopt_base_before_rmpopt",
			  "hardware: a missing RMPOPT_BASE would have faulted");
}
