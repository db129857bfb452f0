// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_snp.c - SNP guest page tracking and teardown: 4K/2M
 * assign and reclaim, leaks on failed reclaim, PSMASH, teardown order,
 * per-core RMPOPT state after teardown, batching, the boot scenario. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hv/ktap.h"
#include "hv/mm.h"
#include "hv/selftest/selftest.h"
#include "hv/snp/rmp.h"
#include "hv/snp/rmp_model.h"
#include "hv/snp/rmpopt.h"
#include "hv/snp/rmpopt_stats.h"
#include "arch/errno.h"
#include "hv/snp/snp.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/state_hooks.h"
#include "tests/unit/snp_env.h"

#define SYN(g) hpa((u64)(g)*SZ_1G) /* synthetic memory, model only */

static void boot(unsigned ncpus, unsigned tpc, bool hw, enum rmpopt_mode m)
{
	env_setup(ncpus, tpc, hw);
	assert_int_equal(snp_init(m, 2 * SZ_1G), 0);
}

/* A 4 KiB guest page inside a 2 MiB host mapping: the host mapping of
 * that 2 MiB is split first (once), a whole 2 MiB page needs no split, and
 * a failed split assigns nothing. */
static void test_4k_assign_splits_host_mapping_first(void **s)
{
	struct rmp_state st;
	u64 tables0;
	hpa_t m;

	(void)s;
	boot(4, 1, true, RMPOPT_MODE_LEADER);
	m = page_alloc(1024, 512);
	tables0 = snp_host_map_pages();
	fake_trace_clear();
	assert_int_equal(snp_guest_assign(5, m, gpa(0), SZ_2M, 0), 0);
	assert_int_equal(env_nsplits, 0); /* 2 MiB entry: no split */
	assert_int_equal(snp_guest_assign(6, hpa(m.v + SZ_2M), gpa(0),
					  2 * PAGE_SIZE, 0),
			 0);
	assert_int_equal(env_nsplits, 1);
	assert_int_equal(snp_host_map_pages() - tables0, 0); /* fake: none */
	assert_int_equal(env_splits[0], m.v + SZ_2M);
	assert_true(fake_trace_find("split") <
		    fake_trace_find("size 0 asid 6"));
	assert_int_equal(env_4k_in_host_2m, 0);
	assert_int_equal(snp_guest_teardown(5), 0);
	assert_int_equal(snp_guest_teardown(6), 0);

	boot(4, 1, false, RMPOPT_MODE_LEADER); /* the model */
	m = page_alloc(1, 1);
	env_split_fails = true;
	assert_int_equal(snp_guest_assign(7, m, gpa(0), PAGE_SIZE, 0), -ENOMEM);
	assert_false(rmp_model_lookup(m, &st));
	assert_int_equal(snp_guest_pages(7), 0);
	assert_true(fake_console_has("cannot map"));
	env_split_fails = false;
	assert_int_equal(snp_guest_assign(7, m, gpa(0), PAGE_SIZE, 0), 0);
	assert_true(rmp_model_lookup(m, &st));
	assert_false(env_host_2m_mapped(m.v));
	assert_int_equal(snp_guest_teardown(7), 0);
}

static void test_assign_4k_2m_teardown_to_pool(void **s)
{
	struct rmp_state st;
	u64 free0;
	hpa_t m;

	(void)s;
	boot(4, 1, false, RMPOPT_MODE_LEADER);
	free0 = mm_free_pages();
	m = page_alloc(512 + 3, 512);
	assert_true(m.v);
	assert_int_equal(
		snp_guest_assign(5, m, gpa(0), SZ_2M + 3 * PAGE_SIZE, 0), 0);
	assert_int_equal(snp_guest_pages(5), 515);
	assert_true(rmp_model_lookup(hpa(m.v + 7 * PAGE_SIZE), &st));
	assert_int_equal(st.pagesize, RMP_PG_2M);
	assert_int_equal(st.asid, 5);
	assert_true(rmp_model_lookup(hpa(m.v + SZ_2M + PAGE_SIZE), &st));
	assert_int_equal(st.pagesize, RMP_PG_4K);
	assert_int_equal(st.gpa, SZ_2M + PAGE_SIZE);
	assert_int_equal(snp_guest_teardown(5), 0);
	assert_int_equal(snp_guest_pages(5), 0);
	assert_false(rmp_model_lookup(m, &st));
	assert_false(rmp_model_lookup(hpa(m.v + SZ_2M + PAGE_SIZE), &st));
	assert_int_equal(mm_free_pages(), free0);
	assert_int_equal(snp_guest_teardown(5), -ENOENT); /* gone */
}

static void test_bad_arguments(void **s)
{
	(void)s;
	boot(2, 1, false, RMPOPT_MODE_LEADER);
	assert_int_equal(snp_guest_assign(0, SYN(5), gpa(0), PAGE_SIZE,
					  SNP_MEM_NOFREE),
			 -EINVAL);
	assert_int_equal(snp_guest_assign(1, hpa(SYN(5).v + 8), gpa(0),
					  PAGE_SIZE, SNP_MEM_NOFREE),
			 -EINVAL);
	assert_int_equal(snp_guest_assign(1, SYN(5), gpa(0), 0, SNP_MEM_NOFREE),
			 -EINVAL);
	assert_int_equal(snp_guest_pages(1), 0);
}

static void test_failed_reclaim_leaks_page(void **s)
{
	struct rmp_state st;
	u64 free0;
	hpa_t m, bad;

	(void)s;
	boot(2, 1, false, RMPOPT_MODE_LEADER);
	free0 = mm_free_pages();
	m = page_alloc(4, 1);
	bad = hpa(m.v + 2 * PAGE_SIZE);
	assert_int_equal(snp_guest_assign(9, m, gpa(0), 4 * PAGE_SIZE, 0), 0);
	rmp_model_fail_next(bad, RMP_FAIL_PERMISSION, 1);
	assert_int_equal(snp_guest_teardown(9), 1);
	assert_int_equal(snp_leaked_pages(), 1);
	assert_int_equal(mm_free_pages(), free0 - 1);
	assert_true(rmp_model_lookup(bad, &st)); /* still the guest's */
	/* Never handed out again: drain the pool. */
	for (hpa_t p; (p = page_alloc(1, 1)).v;)
		assert_true(p.v != bad.v);
}

static void test_failed_2m_reclaim_psmash_leaks_one_4k(void **s)
{
	struct rmp_state st;
	u64 free0;
	hpa_t m;

	(void)s;
	boot(2, 1, false, RMPOPT_MODE_LEADER);
	free0 = mm_free_pages();
	m = page_alloc(512, 512);
	assert_int_equal(snp_guest_assign(4, m, gpa(0), SZ_2M, 0), 0);
	/* The 2M reclaim fails, so does the 4K one of the head page. */
	rmp_model_fail_next(m, RMP_FAIL_PERMISSION, 2);
	assert_int_equal(snp_guest_teardown(4), 1);
	assert_true(rmp_model_lookup(m, &st));
	assert_int_equal(st.pagesize, RMP_PG_4K); /* PSMASHed */
	assert_false(rmp_model_lookup(hpa(m.v + PAGE_SIZE), &st));
	assert_int_equal(mm_free_pages(), free0 - 1);
}

static void test_partial_reclaim_psmash_first(void **s)
{
	struct rmp_state st;
	u64 free0;
	hpa_t m, mid;

	(void)s;
	boot(2, 1, false, RMPOPT_MODE_LEADER);
	free0 = mm_free_pages();
	m = page_alloc(512, 512);
	mid = hpa(m.v + 8 * PAGE_SIZE);
	assert_int_equal(snp_guest_assign(4, m, gpa(SZ_2M), SZ_2M, 0), 0);
	assert_int_equal(snp_guest_reclaim(4, mid, PAGE_SIZE), 0);
	assert_false(rmp_model_lookup(mid, &st));
	assert_true(rmp_model_lookup(m, &st));
	assert_int_equal(st.pagesize, RMP_PG_4K);
	assert_true(rmp_model_lookup(hpa(m.v + 9 * PAGE_SIZE), &st));
	assert_int_equal(st.gpa, SZ_2M + 9 * PAGE_SIZE);
	assert_int_equal(snp_guest_pages(4), 511);
	assert_int_equal(mm_free_pages(), free0 - 511);
	assert_int_equal(snp_guest_teardown(4), 0);
	assert_int_equal(mm_free_pages(), free0);
}

/* Line index of the n-th (0-based) trace line containing needle, or -1. */
static int nth(const char *needle, int n)
{
	int line = 0;

	for (const char *p = fake_trace(); *p; line++) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char buf[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)len, p);
		if (strstr(buf, needle) && n-- == 0)
			return line;
		p += len + (e ? 1 : 0);
	}
	return -1;
}

static void test_teardown_order_hw(void **s)
{
	hpa_t m;
	int first_reclaim, last_reclaim;

	(void)s;
	boot(4, 1, true, RMPOPT_MODE_LEADER);
	m = page_alloc(2, 1);
	assert_int_equal(snp_guest_assign(3, m, gpa(0), 2 * PAGE_SIZE, 0), 0);
	fake_trace_clear();
	assert_int_equal(snp_guest_teardown(3), 0);
	assert_int_equal(fake_trace_count("wbnoinvd"), 8); /* 2 rounds x 4 */
	assert_int_equal(fake_trace_count("assigned 0"), 2);
	first_reclaim = nth("assigned 0", 0);
	last_reclaim = nth("assigned 0", 1);
	/* Every CPU wrote back before the first reclaim ... */
	for (int i = 0; i < 4; i++) {
		char w[32];

		snprintf(w, sizeof(w), "cpu%d: wbnoinvd", i);
		assert_int_equal(fake_trace_count(w), 2);
		assert_true(fake_trace_find(w) < first_reclaim);
	}
	/* ... and again after the last one. */
	assert_true(nth("wbnoinvd", 3) < first_reclaim);
	assert_true(nth("wbnoinvd", 4) > last_reclaim);
	/* No RMPOPT until the flush: teardowns are batched. */
	assert_int_equal(fake_trace_count("rmpopt"), 0);
	assert_int_equal(rmpopt_pending_count(), 1);
}

static void test_regions_after_teardown(void **s)
{
	hpa_t pa, pb;
	u32 n;

	(void)s;
	boot(4, 1, false, RMPOPT_MODE_LEADER);
	pa = page_alloc(1, 1);
	pb = page_alloc(1, 1);
	/* A: pool region 1 and region 5; B: pool region 1 and region 7. */
	assert_int_equal(snp_guest_assign(1, pa, gpa(0), PAGE_SIZE, 0), 0);
	assert_int_equal(snp_guest_assign(1, SYN(5), gpa(SZ_2M), SZ_2M,
					  SNP_MEM_NOFREE),
			 0);
	assert_int_equal(snp_guest_assign(2, pb, gpa(0), PAGE_SIZE, 0), 0);
	assert_int_equal(snp_guest_assign(2, SYN(7), gpa(0), PAGE_SIZE,
					  SNP_MEM_NOFREE),
			 0);
	assert_int_equal(rmpopt_report_all(SYN(1), &n), 0);
	assert_int_equal(snp_guest_teardown(1), 0);
	assert_int_equal(snp_rmpopt_flush(), 2);
	assert_int_equal(rmpopt_report_all(SYN(5), &n), 4); /* every core */
	assert_int_equal(n, 4);
	assert_int_equal(rmpopt_report_all(SYN(1), &n), 0); /* B's page */
	assert_int_equal(rmpopt_report_all(SYN(7), &n), 0);
	assert_int_equal(snp_guest_teardown(2), 0);
	assert_int_equal(snp_rmpopt_flush(), 2);
	assert_int_equal(rmpopt_report_all(SYN(1), &n), 4);
	assert_int_equal(rmpopt_report_all(SYN(5), &n), 4);
	assert_int_equal(rmpopt_report_all(SYN(7), &n), 4);
	assert_int_equal(rmp_model_ud_count(), 0);
}

static void test_teardowns_batched(void **s)
{
	u32 passes;

	(void)s;
	boot(4, 1, false, RMPOPT_MODE_LEADER);
	assert_int_equal(snp_guest_assign(1, SYN(3), gpa(0), PAGE_SIZE,
					  SNP_MEM_NOFREE),
			 0);
	assert_int_equal(
		snp_guest_assign(2, SYN(4), gpa(0), SZ_2M, SNP_MEM_NOFREE), 0);
	/* A 4K page inside B's 2M entry: FAIL_OVERLAP, but tracked. */
	assert_int_equal(snp_guest_assign(3, hpa(SYN(4).v + PAGE_SIZE), gpa(0),
					  PAGE_SIZE, SNP_MEM_NOFREE),
			 -EIO);
	passes = rmpopt_stats_passes();
	assert_int_equal(snp_guest_teardown(1), 0);
	assert_int_equal(snp_guest_teardown(2), 0);
	assert_int_equal(snp_guest_teardown(3), 0); /* untouched range */
	assert_int_equal(rmpopt_stats_passes(), passes);
	assert_int_equal(snp_rmpopt_flush(), 2);
	assert_int_equal(rmpopt_stats_passes(), passes + 1);
	assert_int_equal(rmpopt_stats_last()->regions, 2);
	assert_int_equal(snp_rmpopt_flush(), 0);
}

static void run_scenario(unsigned ncpus, unsigned tpc, enum rmpopt_mode m)
{
	boot(ncpus, tpc, false, m);
	snp_boot_scenario();
	if (ktap_failures()) {
		const char *t = fake_console_text();

		ktap_finish();
		t = fake_console_text();
		fputs(t + (strlen(t) > 3000 ? strlen(t) - 3000 : 0), stderr);
	}
	assert_int_equal(ktap_failures(), 0);
	assert_true(ktap_count() >= 12);
}

static void test_boot_scenario(void **s)
{
	(void)s;
	run_scenario(4, 1, RMPOPT_MODE_LEADER);
	run_scenario(8, 2, RMPOPT_MODE_BOTH);
	run_scenario(3, 1, RMPOPT_MODE_ALL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assign_4k_2m_teardown_to_pool),
		cmocka_unit_test(test_4k_assign_splits_host_mapping_first),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_failed_reclaim_leaks_page),
		cmocka_unit_test(test_failed_2m_reclaim_psmash_leaks_one_4k),
		cmocka_unit_test(test_partial_reclaim_psmash_first),
		cmocka_unit_test(test_teardown_order_hw),
		cmocka_unit_test(test_regions_after_teardown),
		cmocka_unit_test(test_teardowns_batched),
		cmocka_unit_test(test_boot_scenario),
	};

	return cmocka_run_group_tests_name("snp", tests, NULL, NULL);
}
