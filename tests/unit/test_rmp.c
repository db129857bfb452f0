// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_rmp.c - the RMP interface: model rules (4K/2M entries,
 * PSMASH, RMPUPDATE un-optimizes its region on every core, verify/report,
 * 2 TiB coverage) and the hardware back end's retry policy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/features.h"
#include "hv/snp/rmp.h"
#include "hv/snp/rmp_model.h"
#include "hv/snp/rmpopt.h"
#include "hv/snp/snp.h"
#include "tests/doubles/fake_console.h"
#include "tests/unit/snp_env.h"

#define P(x) hpa(x)
#define PG (ENV_POOL_BASE + 0x200000) /* 2 MiB aligned, in the pool */

static void boot(unsigned ncpus, bool hw)
{
	env_setup(ncpus, 1, hw);
	assert_int_equal(snp_init(RMPOPT_MODE_LEADER, 2 * SZ_1G), 0);
}

static void test_model_selected_and_named(void **s)
{
	(void)s;
	boot(4, false);
	assert_ptr_equal(g_rmp, &rmp_model_ops);
	assert_true(fake_console_has("RMP back end: model"));
	boot(4, true);
	assert_ptr_equal(g_rmp, &rmp_hw_ops);
	assert_true(fake_console_has("RMP back end: hardware"));
}

/* RMPOPT only with the segmented RMP enabled (RMP_CFG[0]): SNP and RMPOPT
 * in CPUID but RMP_CFG[0] = 0 -> not the hardware RMPOPT back end. */
static void test_rmpopt_needs_segmented_rmp_enabled(void **s)
{
	(void)s;
	env_setup(4, 1, true);
	fake_msr_define(MSR_AMD_RMP_CFG, 0);
	assert_int_equal(snp_init(RMPOPT_MODE_LEADER, 2 * SZ_1G), 0);
	assert_false(g_snp.rmpopt_usable);
	assert_ptr_equal(g_rmp, &rmp_model_ops);
	assert_int_equal(fake_rmpopt_calls, 0);
	assert_true(fake_console_has("RMPOPT unusable: segmented RMP"));
	/* No segmented RMP in CPUID at all: RMP_CFG is never read. */
	env_setup(4, 1, true);
	g_features.segmented_rmp = false;
	assert_int_equal(snp_init(RMPOPT_MODE_LEADER, 2 * SZ_1G), 0);
	assert_ptr_equal(g_rmp, &rmp_model_ops);
}

static void test_model_4k_assign_reclaim(void **s)
{
	struct rmp_state st;

	(void)s;
	boot(4, false);
	assert_false(rmp_model_lookup(P(PG), &st));
	assert_int_equal(rmp_assign(P(PG), gpa(0x5000), 7, RMP_PG_4K), RMP_OK);
	assert_true(rmp_model_lookup(P(PG), &st));
	assert_int_equal(st.asid, 7);
	assert_int_equal(st.gpa, 0x5000);
	assert_int_equal(st.pagesize, RMP_PG_4K);
	assert_false(rmp_model_lookup(P(PG + PAGE_SIZE), &st));
	assert_int_equal(rmp_make_hv_owned(P(PG), RMP_PG_4K), RMP_OK);
	assert_false(rmp_model_lookup(P(PG), &st));
}

static void test_model_2m_rules_and_psmash(void **s)
{
	struct rmp_state st;

	(void)s;
	boot(4, false);
	assert_int_equal(g_rmp->update(P(PG + PAGE_SIZE),
				       &(struct rmp_state){ .assigned = 1,
							    .pagesize = 1,
							    .asid = 1 }),
			 RMP_FAIL_INPUT);
	assert_int_equal(rmp_assign(P(PG), gpa(SZ_2M), 3, RMP_PG_2M), RMP_OK);
	assert_true(rmp_model_lookup(P(PG + 5 * PAGE_SIZE), &st));
	assert_int_equal(st.pagesize, RMP_PG_2M);
	assert_int_equal(st.gpa, SZ_2M + 5 * PAGE_SIZE);
	assert_int_equal(rmp_model_assigned_in_region(P(PG)), 512);
	/* A 4K change inside an assigned 2M entry overlaps: PSMASH first. */
	assert_int_equal(g_rmp->update(P(PG + PAGE_SIZE),
				       &(struct rmp_state){ 0 }),
			 RMP_FAIL_OVERLAP);
	assert_int_equal(g_rmp->psmash(P(PG)), RMP_OK);
	assert_true(rmp_model_lookup(P(PG + 9 * PAGE_SIZE), &st));
	assert_int_equal(st.pagesize, RMP_PG_4K);
	assert_int_equal(st.asid, 3);
	assert_int_equal(st.gpa, SZ_2M + 9 * PAGE_SIZE);
	assert_int_equal(rmp_make_hv_owned(P(PG + PAGE_SIZE), RMP_PG_4K),
			 RMP_OK);
	assert_false(rmp_model_lookup(P(PG + PAGE_SIZE), &st));
	assert_int_equal(rmp_model_assigned_in_region(P(PG)), 511);
	/* A 2M update over 4K-assigned pages overlaps too. */
	assert_int_equal(g_rmp->update(P(PG),
				       &(struct rmp_state){ .pagesize = 1 }),
			 RMP_FAIL_OVERLAP);
	/* PSMASH of something that is no 2M entry fails. */
	assert_int_equal(g_rmp->psmash(P(PG)), RMP_FAIL_INPUT);
}

static void test_model_rmpupdate_unoptimizes_every_core(void **s)
{
	u32 n;

	(void)s;
	boot(4, false);
	/* snp_init's first pass optimized all RAM (regions 0 and 1). */
	assert_int_equal(rmpopt_report_all(P(0), &n), 4);
	assert_int_equal(rmpopt_report_all(P(SZ_1G), &n), 4);
	assert_int_equal(n, 4);
	assert_int_equal(rmp_assign(P(PG), gpa(0), 1, RMP_PG_4K), RMP_OK);
	assert_int_equal(rmpopt_report_all(P(SZ_1G), &n), 0);
	assert_int_equal(rmpopt_report_all(P(0), &n), 4);
	/* Even a reclaim clears the bit: a new RMPOPT is needed. */
	fake_cpu_select(2);
	assert_false(rmpopt_issue(P(SZ_1G), RMPOPT_VERIFY, RMPOPT_ROLE_CORES));
	assert_int_equal(rmp_make_hv_owned(P(PG), RMP_PG_4K), RMP_OK);
	assert_false(rmpopt_issue(P(SZ_1G), RMPOPT_REPORT, RMPOPT_ROLE_CORES));
	/* Verify sets only the calling core's bit, once the region is free. */
	assert_true(rmpopt_issue(P(SZ_1G), RMPOPT_VERIFY, RMPOPT_ROLE_CORES));
	assert_true(rmpopt_issue(P(SZ_1G), RMPOPT_REPORT, RMPOPT_ROLE_CORES));
	fake_cpu_select(0);
	assert_int_equal(rmpopt_report_all(P(SZ_1G), &n), 1);
	assert_false(rmpopt_issue(P(SZ_1G), RMPOPT_REPORT, RMPOPT_ROLE_CORES));
}

static void test_model_coverage_2t(void **s)
{
	(void)s;
	boot(2, false);
	assert_true(rmpopt_issue(P(RMPOPT_COVERAGE - SZ_1G), RMPOPT_VERIFY,
				 RMPOPT_ROLE_CORES));
	assert_false(rmpopt_issue(P(RMPOPT_COVERAGE), RMPOPT_VERIFY,
				  RMPOPT_ROLE_CORES));
	assert_false(rmpopt_issue(P(RMPOPT_COVERAGE), RMPOPT_REPORT,
				  RMPOPT_ROLE_CORES));
}

static void test_model_rmpopt_needs_base(void **s)
{
	(void)s;
	boot(4, false);
	assert_int_equal(rmp_model_ud_count(), 0);
	/* Core 3 loses its MSR (e.g. parked in a deep state). */
	fake_cpu_select(3);
	g_rmp->set_base(0);
	g_rmp->opt(P(0), RMPOPT_VERIFY);
	assert_int_equal(rmp_model_ud_count(), 1);
	/* The ensure hook programs it again once told the core lost it. */
	rmpopt_core_lost(3);
	assert_true(rmpopt_issue(P(0), RMPOPT_VERIFY, RMPOPT_ROLE_CORES));
	assert_int_equal(rmp_model_ud_count(), 1);
	fake_cpu_select(0);
}

static void test_hw_retries_overlap_only(void **s)
{
	const u32 overlap[] = { RMP_FAIL_OVERLAP, RMP_FAIL_OVERLAP, RMP_OK };
	const u32 perm[] = { RMP_FAIL_PERMISSION, RMP_OK };

	(void)s;
	boot(2, true);
	assert_int_equal(snp_host_map_4k(P(PG)), 0); /* host map first */
	fake_rmpupdate_calls = 0;
	fake_rmpupdate_script(overlap, 3);
	assert_int_equal(rmp_assign(P(PG), gpa(0), 1, RMP_PG_4K), RMP_OK);
	assert_int_equal(fake_rmpupdate_calls, 3);
	fake_rmpupdate_calls = 0;
	fake_rmpupdate_script(perm, 2);
	assert_int_equal(rmp_assign(P(PG), gpa(0), 1, RMP_PG_4K),
			 RMP_FAIL_PERMISSION);
	assert_int_equal(fake_rmpupdate_calls, 1);
	assert_int_equal(env_4k_in_host_2m, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_selected_and_named),
		cmocka_unit_test(test_rmpopt_needs_segmented_rmp_enabled),
		cmocka_unit_test(test_model_4k_assign_reclaim),
		cmocka_unit_test(test_model_2m_rules_and_psmash),
		cmocka_unit_test(test_model_rmpupdate_unoptimizes_every_core),
		cmocka_unit_test(test_model_coverage_2t),
		cmocka_unit_test(test_model_rmpopt_needs_base),
		cmocka_unit_test(test_hw_retries_overlap_only),
	};

	return cmocka_run_group_tests_name("rmp", tests, NULL, NULL);
}
