// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_mtrr_sync.c - the lock-step rendezvous on N pthread fake
 * CPUs: exact step order, WBINVD counts, verification, abort, SNP lock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "arch/errno.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_smp_pthread.h"
#include "tests/doubles/state_hooks.h"
#include "tests/unit/test_mtrr_fixture.h"

#define NCPU 4

static char buf[8192];

/* The exact sequence SDM 11.11.8 asks of each CPU, for t_machine()'s
 * state with CR4.PGE set (pge) or not. */
static void expected_trace(char *e, size_t n, bool flush, bool pge)
{
	struct mtrr_state s;
	size_t l = 0;

	t_state(&s);
#define ADD(...) l += (size_t)snprintf(e + l, n - l, __VA_ARGS__)
	ADD("cli\n");
	ADD("cr0 %#llx\n", T_CR0 | BIT(30)); /* CD=1 */
	if (flush)
		ADD("wbinvd\n");
	if (pge)
		ADD("cr4 %#llx\n", T_CR4 & ~BIT(7)); /* PGE off: TLB flush */
	else
		ADD("cr3 %#llx\n", T_CR3);
	ADD("wrmsr 0x2ff %#llx\n", T_DEF_TYPE & ~BIT(11)); /* E=0 */
	for (unsigned i = 0; i < 8; i++) {
		ADD("wrmsr %#x %#llx\n", 0x200 + 2 * i,
		    (unsigned long long)s.var[i].base);
		ADD("wrmsr %#x %#llx\n", 0x201 + 2 * i,
		    (unsigned long long)s.var[i].mask);
	}
	for (unsigned i = 0; i < MTRR_NFIXED; i++)
		ADD("wrmsr %#x %#llx\n", t_fixed_msr[i],
		    (unsigned long long)t_fixed_val[i]);
	ADD("wrmsr 0x2ff %#llx\n", T_DEF_TYPE); /* E=1 */
	if (flush)
		ADD("wbinvd\n");
	ADD("cr3 %#llx\n", T_CR3); /* TLB flush */
	ADD("cr0 %#llx\n", T_CR0); /* CD=0 */
	if (pge)
		ADD("cr4 %#llx\n", T_CR4); /* PGE back */
	ADD("sti\n");
#undef ADD
	/* 0 and 0x0 print alike through %#llx and the fake's %#llx */
}

static void check_all_traces(unsigned ncpu, bool flush, bool pge)
{
	char want[8192];

	expected_trace(want, sizeof(want), flush, pge);
	for (unsigned c = 0; c < ncpu; c++) {
		t_cpu_trace(c, buf, sizeof(buf));
		if (strcmp(buf, want))
			fail_msg("cpu%u trace:\n%s\nwanted:\n%s", c, buf, want);
	}
}

/* Line index of the first (last) trace line containing needle, or -1. */
static int line_of(const char *needle, bool last)
{
	const char *p = fake_trace();
	int line = 0, hit = -1;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t ll = e ? (size_t)(e - p) : strlen(p);
		char l[256];

		snprintf(l, sizeof(l), "%.*s", (int)ll, p);
		if (strstr(l, needle)) {
			hit = line;
			if (!last)
				return hit;
		}
		line++;
		p += ll + (e ? 1 : 0);
	}
	return hit;
}

static void test_lock_step(void **st)
{
	char cd[32], pge[32];

	(void)st;
	t_machine(8, VENDOR_AMD, false);
	assert_int_equal(mtrr_init(), 0);
	snprintf(cd, sizeof(cd), "cr0 %#llx", T_CR0 | BIT(30));
	snprintf(pge, sizeof(pge), "cr4 %#llx", T_CR4);
	/* nobody touches CR0 before every CPU has arrived (entry barrier) */
	assert_true(line_of("cli", true) < line_of(cd, false));
	/* nobody leaves before every CPU is done (exit barrier) */
	assert_true(line_of(pge, true) < line_of("sti", false));
	assert_int_equal(fake_trace_count("cli"), 8);
}

static void test_step_order_no_self_snoop(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, false);
	assert_int_equal(mtrr_init(), 0);
	check_all_traces(NCPU, true, true);
	for (unsigned c = 0; c < NCPU; c++) {
		assert_int_equal(fake_cpus[c].wbinvd_count, 2);
		assert_true(fake_cpus[c].irq_enabled);
		assert_int_equal(fake_cpus[c].cr0, T_CR0);
		assert_int_equal(fake_cpus[c].cr4, T_CR4);
	}
	assert_true(fake_console_has("all 4 CPUs verified equal"));
	assert_true(fake_console_has("no self-snoop"));
}

static void test_step_order_without_pge(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_INTEL, false);
	for (unsigned c = 0; c < NCPU; c++)
		fake_cpus[c].cr4 = T_CR4 & ~BIT(7);
	assert_int_equal(mtrr_init(), 0);
	/* no cr4 write at all; CR3 reloaded twice */
	for (unsigned c = 0; c < NCPU; c++) {
		t_cpu_trace(c, buf, sizeof(buf));
		assert_null(strstr(buf, "cr4"));
		assert_null(strstr(buf, "0xc0010010")); /* no SYSCFG on Intel */
	}
	assert_int_equal(fake_trace_count("cr3 0x1000"), 2 * NCPU);
	assert_int_equal(t_wbinvd_total(NCPU), 2 * NCPU);
}

static void test_self_snoop_skips_both_wbinvd(void **st)
{
	const struct mtrr_stats *s;

	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	assert_int_equal(mtrr_init(), 0);
	check_all_traces(NCPU, false, true);
	assert_int_equal(t_wbinvd_total(NCPU), 0);
	s = mtrr_last_stats();
	assert_int_equal(s->seq, 1);
	assert_false(s->flushed);
	assert_int_equal(s->wbinvd_total, 0);
	assert_int_equal(s->cpus, NCPU);
	assert_int_equal(s->precheck_differ, 0);
	assert_true(fake_console_has("caches not flushed"));
	assert_true(fake_console_has("both WBINVDs skipped"));
}

static void test_no_self_snoop_two_per_cpu(void **st)
{
	const struct mtrr_stats *s;

	(void)st;
	t_machine(8, VENDOR_AMD, false);
	assert_int_equal(mtrr_init(), 0);
	for (unsigned c = 0; c < 8; c++)
		assert_int_equal(fake_cpus[c].wbinvd_count, 2);
	s = mtrr_last_stats();
	assert_true(s->flushed);
	assert_int_equal(s->wbinvd_total, 16);
	assert_int_equal(s->wbinvd_cpu_min, 2);
	assert_int_equal(s->wbinvd_cpu_max, 2);
	assert_int_equal(s->cpus, 8);
	assert_int_equal(s->expected, 8);
	/* each phase took time on every CPU (fake TSC steps by 1) */
	for (int p = 0; p < MTRR_NPHASES; p++) {
		assert_true(s->phase_max[p] > 0);
		assert_true(s->phase_sum[p] >= 8);
	}
	assert_true(
		fake_console_has("WBINVD executed 16 times (2..2 per CPU)"));
}

static void test_self_snoop_to_uc_flushes(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	assert_int_equal(mtrr_init(), 0);
	assert_int_equal(t_wbinvd_total(NCPU), 0);
	/* 4 GiB..5 GiB was default WB: becoming UC needs the flush */
	assert_int_equal(mtrr_set_range(4ULL << 30, 1ULL << 30, MTRR_TYPE_UC),
			 0);
	for (unsigned c = 0; c < NCPU; c++)
		assert_int_equal(fake_cpus[c].wbinvd_count, 2);
	assert_true(mtrr_last_stats()->flushed);
	assert_true(fake_console_has("makes cacheable memory UC"));
	/* WB -> WC on another range stays cacheable: no flush */
	assert_int_equal(mtrr_set_range(8ULL << 30, 1ULL << 30, MTRR_TYPE_WC),
			 0);
	assert_int_equal(t_wbinvd_total(NCPU), 2 * NCPU);
	assert_false(mtrr_last_stats()->flushed);
}

static void test_flush_option_on_off(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	mtrr_set_flush_option(TRI_ON);
	assert_int_equal(mtrr_init(), 0);
	assert_int_equal(t_wbinvd_total(NCPU), 2 * NCPU);
	assert_true(fake_console_has("mtrr_flush=on"));

	t_machine(NCPU, VENDOR_AMD, false);
	mtrr_set_flush_option(TRI_OFF);
	assert_int_equal(mtrr_init(), 0);
	assert_int_equal(t_wbinvd_total(NCPU), 0);
	assert_true(fake_console_has("mtrr_flush=off"));
	assert_true(fake_console_has("warning: mtrr: mtrr_flush=off"));
}

static void test_verify_catches_dropped_write(void **st)
{
	const struct mtrr_stats *s;

	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	assert_int_equal(mtrr_init(), 0);
	fake_msr_drop_writes(2, MSR_MTRR_PHYSMASK(1), true);
	assert_int_equal(mtrr_set_range(4ULL << 30, 1ULL << 30, MTRR_TYPE_WC),
			 -EIO);
	s = mtrr_last_stats();
	assert_int_equal(s->rc, -EIO);
	assert_int_equal(s->mismatch_cpus, 1);
	assert_int_equal(s->mismatch_msrs, 1);
	assert_int_equal(s->first_mismatch_cpu, 2);
	assert_true(fake_console_has(
		"error: mtrr: cpu2: MSR 0x203 is 0, boot CPU has"));
	assert_true(fake_console_has("1 of 4 CPUs differ"));
	assert_false(fake_console_has("cpu1: MSR"));
}

static void test_cpu_differing_before_forces_flush(void **st)
{
	const struct mtrr_stats *s;

	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	/* firmware left cpu3 without the UC hole */
	fake_cpu_select(3);
	wrmsr(MSR_MTRR_PHYSMASK(0), 0);
	fake_cpu_select(0);
	fake_trace_clear();
	assert_int_equal(mtrr_init(), 0);
	s = mtrr_last_stats();
	assert_int_equal(s->precheck_differ, 1);
	assert_int_equal(s->precheck_unsafe, 1);
	assert_true(s->flushed);
	assert_int_equal(t_wbinvd_total(NCPU), 2 * NCPU);
	assert_int_equal(fake_msr_read(3, MSR_MTRR_PHYSMASK(0)),
			 T_VMASK(2ULL << 30));
	assert_int_equal(s->mismatch_cpus, 0);
}

/* QEMU: an AP's MTRRs are all 0 after INIT (disabled: everything UC).
 * UC -> the boot CPU's types makes nothing UC: the skip still applies. */
static void test_cpu_with_mtrrs_off_before_still_skips(void **st)
{
	const struct mtrr_stats *s;

	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	fake_cpu_select(2);
	wrmsr(MSR_MTRR_DEF_TYPE, 0);
	for (u32 i = 0; i < 8; i++) {
		wrmsr(MSR_MTRR_PHYSBASE(i), 0);
		wrmsr(MSR_MTRR_PHYSMASK(i), 0);
	}
	fake_cpu_select(0);
	fake_trace_clear();
	assert_int_equal(mtrr_init(), 0);
	s = mtrr_last_stats();
	assert_int_equal(s->precheck_differ, 1);
	assert_int_equal(s->precheck_unsafe, 0);
	assert_false(s->flushed);
	assert_int_equal(t_wbinvd_total(NCPU), 0);
	assert_int_equal(s->mismatch_cpus, 0);
	assert_true(fake_console_has("1 of 4 CPUs held MTRRs different"));
}

static void test_missing_cpu_aborts_before_any_write(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, false);
	fake_smp_set_absent(3, true);
	mtrr_set_barrier_timeout(1000);
	assert_int_equal(mtrr_init(), -ETIMEDOUT);
	assert_true(mtrr_last_stats()->aborted);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_int_equal(fake_trace_count("cr0"), 0);
	assert_int_equal(fake_trace_count("cli"), 3);
	assert_int_equal(fake_trace_count("sti"), 3);
	assert_true(fake_console_has("rendezvous aborted"));
}

static void test_amd_snp_sets_fix_dram_mod_en_everywhere(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	g_features.snp = true;
	g_mtrr_snp_enabling = true;
	assert_int_equal(mtrr_init(), 0);
	g_mtrr_snp_enabling = false;
	for (unsigned c = 0; c < NCPU; c++) {
		assert_int_equal(fake_msr_read(c, MSR_AMD_SYSCFG),
				 T_SYSCFG | SYSCFG_MTRR_FIX_DRAM_MOD_EN);
		/* on APs, before the fixed-range writes */
		t_cpu_trace(c, buf, sizeof(buf));
		if (c)
			assert_true(strstr(buf, "wrmsr 0xc0010010 0xc0000") <
				    strstr(buf, "wrmsr 0x250"));
		assert_non_null(strstr(buf, "wrmsr 0x250"));
	}
	/* a SYSCFG difference changes no memory type: still no flush */
	assert_int_equal(mtrr_last_stats()->precheck_differ, 0);
	assert_int_equal(t_wbinvd_total(NCPU), 0);
	/* the boot CPU set it once in capture, then never again */
	assert_int_equal(fake_trace_count("cpu0: wrmsr 0xc0010010"), 1);
	assert_int_equal(fake_trace_count("wrmsr 0xc0010010"), NCPU);
}

/* A CPU that offers SNP, but nothing is going to enable it: SYSCFG stays
 * as the firmware left it (only the SNP enabling path sets the bit). */
static void test_amd_snp_offered_leaves_syscfg(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	g_features.snp = true;
	assert_int_equal(mtrr_init(), 0);
	for (unsigned c = 0; c < NCPU; c++)
		assert_int_equal(fake_msr_read(c, MSR_AMD_SYSCFG), T_SYSCFG);
	assert_int_equal(fake_trace_count("wrmsr 0xc0010010"), 0);
}

static void test_fixed_rdwrmem_bits_compared_only_when_readable(void **st)
{
	struct mtrr_state s;

	(void)st;
	t_machine(2, VENDOR_AMD, false);
	fake_cpu_select(1);
	mtrr_capture(&s);
	wrmsr(MSR_MTRR_FIX64K_00000, t_fixed_val[0] | 0x18);
	/* ModEn=0: RdMem/WrMem read as 0 on hardware; not compared */
	assert_int_equal(mtrr_compare(&s, 1, MTRR_CMP_REPORT), 0);
	wrmsr(MSR_AMD_SYSCFG, T_SYSCFG | SYSCFG_MTRR_FIX_DRAM_MOD_EN);
	s.fix_dram_mod_en = true;
	assert_int_equal(mtrr_compare(&s, 1, MTRR_CMP_REPORT), 1);
	assert_true(fake_console_has("cpu1: MSR 0x250"));
	fake_cpu_select(0);
}

static void test_snp_lock_refuses_writes(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	assert_int_equal(mtrr_init(), 0);
	mtrr_lock_for_snp();
	fake_trace_clear();
	assert_int_equal(mtrr_set_range(4ULL << 30, 1ULL << 30, MTRR_TYPE_WC),
			 -EPERM);
	assert_int_equal(mtrr_sync_all(mtrr_current(), NULL), -EPERM);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_true(fake_console_has("locked for SNP"));
}

/* H6: SNP_EN set by firmware (a supported set-up) locks the MTRRs: init
 * writes nothing, verifies every CPU against the boot CPU, and passes
 * when they agree, as firmware programs them alike. */
static void test_snp_enabled_behind_our_back(void **st)
{
	const struct mtrr_stats *s;

	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	g_features.snp = true;
	fake_msr_define(MSR_AMD_SYSCFG, T_SYSCFG | SYSCFG_SNP_EN);
	assert_int_equal(mtrr_init(), 0);
	assert_true(mtrr_locked_for_snp());
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_int_equal(fake_trace_count("wbinvd"), 0);
	s = mtrr_last_stats();
	assert_true(s->verify_only);
	assert_int_equal(s->rc, 0);
	assert_int_equal(s->cpus, NCPU);
	assert_int_equal(s->mismatch_cpus, 0);
	assert_int_equal(s->wbinvd_total, 0);
	assert_non_null(mtrr_current());
	assert_int_equal(mtrr_current()->def_type, T_DEF_TYPE);
	assert_true(fake_console_has("verified equal to the boot CPU"));
	/* Still no rendezvous afterwards. */
	assert_int_equal(mtrr_sync_all(mtrr_current(), NULL), -EPERM);
}

/* ... and when one CPU differs, it is reported and init fails (-EIO):
 * nothing can make them agree once SNP locks them. */
static void test_snp_enabled_cpu_differs(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	g_features.snp = true;
	fake_msr_define(MSR_AMD_SYSCFG, T_SYSCFG | SYSCFG_SNP_EN);
	fake_cpu_select(2);
	wrmsr(MSR_MTRR_PHYSMASK(0), 0); /* its UC range invalid */
	fake_cpu_select(0);
	fake_trace_clear();
	assert_int_equal(mtrr_init(), -EIO);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_int_equal(mtrr_last_stats()->mismatch_cpus, 1);
	assert_true(fake_console_has("cpu2: MSR 0x201"));
}

static void test_no_mtrr_feature_does_nothing(void **st)
{
	(void)st;
	t_machine(NCPU, VENDOR_AMD, true);
	g_features.mtrr = false;
	assert_int_equal(mtrr_init(), 0);
	assert_null(mtrr_current());
	assert_int_equal(mtrr_last_stats()->seq, 0);
	assert_int_equal(fake_smp_calls(), 0);
	assert_true(fake_console_has("no MTRRs"));
}

int t_sync_tests(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_step_order_no_self_snoop),
		cmocka_unit_test(test_step_order_without_pge),
		cmocka_unit_test(test_lock_step),
		cmocka_unit_test(test_self_snoop_skips_both_wbinvd),
		cmocka_unit_test(test_no_self_snoop_two_per_cpu),
		cmocka_unit_test(test_self_snoop_to_uc_flushes),
		cmocka_unit_test(test_flush_option_on_off),
		cmocka_unit_test(test_verify_catches_dropped_write),
		cmocka_unit_test(test_cpu_differing_before_forces_flush),
		cmocka_unit_test(test_cpu_with_mtrrs_off_before_still_skips),
		cmocka_unit_test(test_missing_cpu_aborts_before_any_write),
		cmocka_unit_test(test_amd_snp_sets_fix_dram_mod_en_everywhere),
		cmocka_unit_test(test_amd_snp_offered_leaves_syscfg),
		cmocka_unit_test(
			test_fixed_rdwrmem_bits_compared_only_when_readable),
		cmocka_unit_test(test_snp_lock_refuses_writes),
		cmocka_unit_test(test_snp_enabled_cpu_differs),
		cmocka_unit_test(test_snp_enabled_behind_our_back),
		cmocka_unit_test(test_no_mtrr_feature_does_nothing),
	};

	return cmocka_run_group_tests_name("mtrr_sync", t, NULL, NULL);
}
