// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_rmpopt.c - RMPOPT planning (touched regions, 2 TiB
 * limit), RMPOPT_BASE before the first RMPOPT on every core (parking too),
 * the leader-then-cores and all-at-once schedules, batching, statistics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/snp/rmp.h"
#include "hv/snp/rmp_model.h"
#include "hv/snp/rmpopt.h"
#include "hv/snp/rmpopt_stats.h"
#include "hv/snp/snp.h"
#include "tests/doubles/fake_console.h"
#include "tests/unit/snp_env.h"

static void boot(unsigned ncpus, unsigned tpc, bool hw, enum rmpopt_mode m)
{
	env_setup(ncpus, tpc, hw);
	assert_int_equal(snp_init(m, 2 * SZ_1G), 0);
}

/* Line number of the n-th (0-based) trace line containing both a and b. */
static int nth_line(const char *a, const char *b, int n)
{
	const char *t = fake_trace();
	int line = 0;

	for (const char *p = t; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char buf[256];

		snprintf(buf, sizeof(buf), "%.*s", (int)len, p);
		if (strstr(buf, a) && (!b || strstr(buf, b)) && n-- == 0)
			return line;
		line++;
		p += len + (e ? 1 : 0);
	}
	return -1;
}

static void test_plan_exact_regions(void **s)
{
	u64 bm[RMPOPT_REGIONS / 64] = { 0 }, out[8];

	(void)s;
	bm[0] = BIT(0) | BIT(5);
	bm[31] = BIT(63);
	assert_int_equal(rmpopt_plan(bm, hpa(SZ_1G + 123), out, 8), 3);
	assert_int_equal(out[0], SZ_1G);
	assert_int_equal(out[1], 6 * SZ_1G);
	assert_int_equal(out[2], SZ_1G + 2047 * SZ_1G);
	assert_int_equal(rmpopt_plan(bm, hpa(0), out, 2), 2);
}

static void test_pending_touched_regions_and_2t_limit(void **s)
{
	(void)s;
	boot(2, 1, true, RMPOPT_MODE_LEADER);
	fake_trace_clear();
	assert_int_equal(rmpopt_pending_add(hpa(SZ_1G + 5), PAGE_SIZE), 0);
	assert_int_equal(rmpopt_pending_add(hpa(3 * SZ_1G - PAGE_SIZE),
					    2 * PAGE_SIZE),
			 0);
	/* Straddles the end of the table: one region in, one left out. */
	assert_int_equal(rmpopt_pending_add(hpa(RMPOPT_COVERAGE - PAGE_SIZE),
					    2 * PAGE_SIZE),
			 1);
	assert_int_equal(rmpopt_pending_add(hpa(5 * RMPOPT_COVERAGE), SZ_2M),
			 1);
	assert_int_equal(rmpopt_pending_count(), 4);
	assert_int_equal(rmpopt_flush(), 4);
	assert_int_equal(rmpopt_pending_count(), 0);
	/* 4 regions x 2 cores, exactly those addresses. */
	assert_int_equal(fake_trace_count("rmpopt "), 8);
	assert_int_equal(fake_trace_count("rmpopt 0x40000000 0"), 2);
	assert_int_equal(fake_trace_count("rmpopt 0x80000000 0"), 2);
	assert_int_equal(fake_trace_count("rmpopt 0xc0000000 0"), 2);
	assert_int_equal(fake_trace_count("rmpopt 0x1ffc0000000 0"), 2);
	assert_true(fake_console_has("beyond the 2 TiB"));
	assert_int_equal(rmpopt_flush(), 0); /* nothing pending: no pass */
}

static void test_base_before_first_rmpopt_each_core(void **s)
{
	char w[64];

	(void)s;
	/* 8 CPUs, 2 threads per core: 4 cores. snp_init programs and runs
	 * the first pass; the fake RMPOPT fails the test on #UD. */
	boot(8, 2, true, RMPOPT_MODE_LEADER);
	assert_int_equal(fake_trace_count("wrmsr 0xc0010139"), 4);
	for (unsigned core = 0; core < 4; core++) {
		int first_rmpopt = -1, wr = -1;

		for (unsigned t = 0; t < 2; t++) {
			int l;

			snprintf(w, sizeof(w), "cpu%u: ", core * 2 + t);
			l = nth_line(w, "wrmsr 0xc0010139 0x1", 0);
			if (l >= 0)
				wr = l;
			l = nth_line(w, "rmpopt", 0);
			if (l >= 0 && (first_rmpopt < 0 || l < first_rmpopt))
				first_rmpopt = l;
		}
		assert_true(wr >= 0);
		assert_true(first_rmpopt > wr);
	}
	/* Core 2 (cpus 4, 5) comes back from parking without its MSR. */
	for (unsigned i = 0; i < fake_cpus[4].nmsrs; i++)
		if (fake_cpus[4].msrs[i].msr == MSR_AMD_RMPOPT_BASE)
			fake_cpus[4].msrs[i].val = 0;
	for (unsigned i = 0; i < fake_cpus[5].nmsrs; i++)
		if (fake_cpus[5].msrs[i].msr == MSR_AMD_RMPOPT_BASE)
			fake_cpus[5].msrs[i].val = 0;
	rmpopt_core_lost(4);
	fake_trace_clear();
	rmpopt_pending_add(hpa(SZ_1G), PAGE_SIZE);
	rmpopt_flush();
	assert_int_equal(fake_trace_count("wrmsr 0xc0010139"), 1);
	assert_true(nth_line("cpu4: wrmsr 0xc0010139", NULL, 0) <
		    nth_line("cpu4: rmpopt", NULL, 0));
}

static void test_leader_then_cores(void **s)
{
	char w[32];

	(void)s;
	boot(8, 2, true, RMPOPT_MODE_LEADER);
	for (u64 r = 1; r <= 3; r++)
		rmpopt_pending_add(hpa(r * SZ_1G), PAGE_SIZE);
	fake_trace_clear();
	assert_int_equal(rmpopt_flush(), 3);
	assert_int_equal(fake_trace_count("rmpopt "), 12);
	/* The leader (the caller, cpu0) verifies every region first. */
	for (int i = 0; i < 3; i++)
		assert_int_equal(nth_line("rmpopt", NULL, i),
				 nth_line("cpu0: rmpopt", NULL, i));
	assert_int_equal(fake_trace_count("cpu0: rmpopt"), 3);
	/* Then one thread of every other core, once per region. */
	for (unsigned c = 2; c < 8; c += 2) {
		snprintf(w, sizeof(w), "cpu%u: rmpopt", c);
		assert_int_equal(fake_trace_count(w), 3);
		assert_true(nth_line(w, NULL, 0) >
			    nth_line("cpu0: rmpopt", NULL, 2));
		snprintf(w, sizeof(w), "cpu%u: rmpopt", c + 1);
		assert_int_equal(fake_trace_count(w), 0);
	}
	assert_int_equal(fake_trace_count("cpu1: rmpopt"), 0);
	/* Never with interrupts off for the pass. */
	assert_int_equal(fake_trace_count("cli"), 0);
	assert_true(fake_console_has(
		"pass leader-then-cores: 3 regions, 12 RMPOPTs"));
	assert_int_equal(rmpopt_stats_last()->role[RMPOPT_ROLE_LEADER].count,
			 3);
	assert_int_equal(rmpopt_stats_last()->role[RMPOPT_ROLE_CORES].count, 9);
}

static void test_all_at_once(void **s)
{
	(void)s;
	boot(8, 2, true, RMPOPT_MODE_ALL);
	rmpopt_pending_add(hpa(SZ_1G), 2 * SZ_1G);
	fake_trace_clear();
	assert_int_equal(rmpopt_flush(), 2);
	assert_int_equal(fake_trace_count("rmpopt "), 8);
	assert_int_equal(fake_trace_count("cpu0: rmpopt"), 2);
	assert_int_equal(fake_trace_count("cpu1: rmpopt"), 0);
	assert_true(fake_console_has("pass all-cores-at-once: 2 regions"));
	assert_int_equal(rmpopt_stats_last()->role[RMPOPT_ROLE_LEADER].count,
			 0);
}

static void test_model_both_and_cached_scan(void **s)
{
	u32 passes, n;
	u64 scans;

	(void)s;
	boot(4, 1, false, RMPOPT_MODE_BOTH);
	passes = rmpopt_stats_passes();
	scans = rmp_model_scans();
	/* Regions 2..4: no scan of them is cached from snp_init's pass. */
	rmpopt_pending_add(hpa(2 * SZ_1G), 3 * SZ_1G);
	fake_console_clear();
	assert_int_equal(rmpopt_flush(), 3);
	assert_int_equal(rmpopt_stats_passes() - passes, 2);
	assert_true(fake_console_has("pass all-cores-at-once: 3 regions"));
	assert_true(fake_console_has("pass leader-then-cores: 3 regions"));
	/* Both passes scanned each region once: every other RMPOPT hit the
	 * cached scan (the fake runs CPUs one after the other). */
	assert_int_equal(rmp_model_scans() - scans, 6);
	for (u64 r = 2; r <= 4; r++)
		assert_int_equal(rmpopt_report_all(hpa(r * SZ_1G), &n), 4);
}

static void test_stats_min_avg_max(void **s)
{
	const struct rmpopt_summary *sm;

	(void)s;
	env_setup(4, 1, false);
	assert_int_equal(rmpopt_stats_init(4), 0);
	rmpopt_stats_begin();
	rmpopt_stats_record(0, RMPOPT_ROLE_LEADER, 100, true);
	rmpopt_stats_record(1, RMPOPT_ROLE_CORES, 30, false);
	rmpopt_stats_record(1, RMPOPT_ROLE_CORES, 10, true);
	rmpopt_stats_record(2, RMPOPT_ROLE_CORES, 20, true);
	sm = rmpopt_stats_end("test", 2, 999);
	assert_int_equal(sm->all.count, 4);
	assert_int_equal(sm->all.min, 10);
	assert_int_equal(sm->all.max, 100);
	assert_int_equal(rmpopt_cycles_avg(&sm->all), 40);
	assert_int_equal(rmpopt_cycles_avg(&sm->role[RMPOPT_ROLE_LEADER]), 100);
	assert_int_equal(rmpopt_cycles_avg(&sm->role[RMPOPT_ROLE_CORES]), 20);
	assert_int_equal(sm->total_cycles, 999);
	assert_int_equal(sm->optimized[0], 1);
	assert_int_equal(sm->optimized[1], 1);
	assert_int_equal(sm->optimized[2], 1);
	assert_int_equal(sm->optimized[3], 0);
	assert_true(fake_console_has("min/avg/max 10/40/100"));
	assert_true(
		fake_console_has("regions optimized per cpu: 0:1 1:1 2:1 3:0"));
	/* A new pass starts from zero. */
	rmpopt_stats_begin();
	rmpopt_stats_record(3, RMPOPT_ROLE_CORES, 5, true);
	sm = rmpopt_stats_end("test", 1, 5);
	assert_int_equal(sm->all.count, 1);
	assert_int_equal(sm->all.max, 5);
	assert_int_equal(sm->optimized[0], 0);
}

static void test_stats_from_a_pass(void **s)
{
	const struct rmpopt_summary *sm;

	(void)s;
	boot(4, 1, true, RMPOPT_MODE_LEADER);
	fake_tsc_set(0, 7);
	fake_rmpopt_cf = false; /* nothing optimized this time */
	rmpopt_pending_add(hpa(SZ_1G), SZ_1G);
	rmpopt_flush();
	sm = rmpopt_stats_last();
	assert_int_equal(sm->all.count, 4);
	assert_int_equal(sm->all.min, 7);
	assert_int_equal(sm->all.max, 7);
	assert_true(sm->total_cycles >= 4 * 7);
	for (unsigned c = 0; c < 4; c++)
		assert_int_equal(sm->optimized[c], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_exact_regions),
		cmocka_unit_test(test_pending_touched_regions_and_2t_limit),
		cmocka_unit_test(test_base_before_first_rmpopt_each_core),
		cmocka_unit_test(test_leader_then_cores),
		cmocka_unit_test(test_all_at_once),
		cmocka_unit_test(test_model_both_and_cached_scan),
		cmocka_unit_test(test_stats_min_avg_max),
		cmocka_unit_test(test_stats_from_a_pass),
	};

	return cmocka_run_group_tests_name("rmpopt", tests, NULL, NULL);
}
