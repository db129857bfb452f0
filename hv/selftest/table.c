// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/table.c - the one table of in-hypervisor self-tests and
 * benchmarks, and the stage runner. Order within a stage is the KTAP order
 * the boot tests (tests/boot/) read. MINHV_SELFTEST=0 (make SELFTEST=0)
 * leaves the table empty: production code runs its stages all the same. */
#include "hv/selftest/selftest.h"
#include "hv/run/boot_info.h"
#include "hv/guest/guest.h"
#include "hv/options/options.h"

#ifndef MINHV_SELFTEST
#define MINHV_SELFTEST 1
#endif

#if MINHV_SELFTEST
static void st_smp(struct selftest_ctx *c)
{
	(void)c;
	smp_ktap();
}

static void st_ipi_bench(struct selftest_ctx *c)
{
	if (c->bench)
		ipi_bench();
}

static void st_mtrr(struct selftest_ctx *c)
{
	mtrr_ktap(c->mtrr_init_rc);
}

static void st_park(struct selftest_ctx *c)
{
	(void)c;
	park_boot_checks();
}

static void st_park_mtrr(struct selftest_ctx *c)
{
	(void)c;
	park_mtrr_check();
}

/* The default guest runs its own default scenarios; the suite's words are
 * not guest scenario names (the guest would fail on a filter that selects
 * nothing), so the suite takes them. */
static void st_suite_claim(struct selftest_ctx *c)
{
	if (svm_suite_wanted(c->tests))
		c->guest_tests = "";
	/* Its guests run their own scenarios: the default one says hello. */
	else if (sched_suite_wanted(c->tests))
		c->guest_tests = "hello";
}

static void st_vcpu_park_snapshot(struct selftest_ctx *c)
{
	vcpu_park_snapshot(c->guest);
}

static void st_vcpu_park_checks(struct selftest_ctx *c)
{
	vcpu_park_checks(c->guest);
}

static void st_first_vmrun(struct selftest_ctx *c)
{
	if (c->bench)
		bench_note_first_vmrun(c->tsc);
}

static void st_exit_paths(struct selftest_ctx *c)
{
	if (c->guest->bench)
		bench_print_exit_paths(c->guest);
}

static void st_suite(struct selftest_ctx *c)
{
	struct guest_params p;

	if (!c->guest_params || !svm_suite_wanted(c->tests))
		return;
	p = *c->guest_params;
	p.tests = c->tests;
	svm_suite_run(&p);
}

static void st_sched(struct selftest_ctx *c)
{
	if (c->guest_params && sched_suite_wanted(c->tests))
		sched_suite_run(c->guest_params);
}

static void st_boot_bench(struct selftest_ctx *c)
{
	if (c->bench)
		bench_print_boot(c->bi, c->tsc_hv_main);
}

static void st_snp(struct selftest_ctx *c)
{
	if (!c->snp_init_rc)
		snp_boot_scenario();
}
#endif

/* BOOT: a boot self-test, skipped with selftests=off (hv/options). */
#define BOOT true
const struct selftest selftest_table[] = {
#if MINHV_SELFTEST
	/* clang-format off */
	{ ST_AFTER_SMP, "smp", st_smp, BOOT },
	{ ST_AFTER_SMP, "ipi_bench", st_ipi_bench, false },
	{ ST_AFTER_MTRR, "mtrr", st_mtrr, BOOT },
	{ ST_AFTER_PARK, "park", st_park, BOOT },
	{ ST_AFTER_PARK, "park_mtrr", st_park_mtrr, BOOT },
	{ ST_BEFORE_GUEST, "svm_suite_claim", st_suite_claim, false },
	{ ST_GUEST_CREATED, "vcpu_park_snapshot", st_vcpu_park_snapshot, BOOT },
	{ ST_VCPU_START, "first_vmrun", st_first_vmrun, false },
	{ ST_GUEST_STOPPED, "vcpu_park", st_vcpu_park_checks, BOOT },
	{ ST_GUEST_STOPPED, "exit_path_bench", st_exit_paths, false },
	{ ST_AFTER_GUEST, "svm_suite", st_suite, false },
	{ ST_AFTER_GUEST, "sched_suite", st_sched, false },
	{ ST_AFTER_GUEST, "boot_bench", st_boot_bench, false },
	{ ST_AFTER_SNP, "snp_scenario", st_snp, BOOT },
/* clang-format on */
#endif
	{ ST_NR, NULL, NULL, false }, /* end; keeps the array non-empty */
};

const unsigned selftest_count = ARRAY_SIZE(selftest_table) - 1;

void selftest_run(enum selftest_stage stage, struct selftest_ctx *ctx)
{
	for (unsigned i = 0; i < selftest_count; i++)
		if (selftest_table[i].stage == stage &&
		    (g_options.selftests || !selftest_table[i].boot_test))
			selftest_table[i].fn(ctx);
}
