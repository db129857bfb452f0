// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_spec_ctrl.c - the speculation policy for each CPUID
 * enumeration, per-CPU setup, and the guest/host SPEC_CTRL switch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/park/spec_ctrl.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/park_fakes.h"

#define EFER_BOOT (EFER_SCE | EFER_LME | EFER_LMA | EFER_NXE)

static int setup(void **s)
{
	(void)s;
	pf_reset();
	fake_console_clear();
	fake_msr_define(MSR_EFER, EFER_BOOT);
	return 0;
}

/* QEMU TCG's EPYC model: no IBRS, STIBP, SSBD or AutoIBRS. */
static void test_none_enumerated(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	pf_boot_spec(false);
	assert_false(g_spec_policy.has_msr);
	assert_int_equal(g_spec_policy.host, SPEC_HOST_NONE);
	assert_int_equal(g_spec_policy.base, 0);
	assert_false(g_spec_policy.park_lowers);
	assert_int_equal(g_spec_policy.guest, SPEC_GUEST_NONE);
	assert_string_equal(
		g_spec_policy.park_why,
		"no SPEC_CTRL write needed: IBRS not enumerated by CPUID, host SPEC_CTRL.IBRS is never set");
}

static void test_none_cpu_init_writes_nothing(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	/* SPEC_CTRL undefined in the fake: any access fails the test. */
	pf_boot_spec(false);
	fake_cpu_select(2);
	spec_ctrl_cpu_init();
	assert_int_equal(fake_cpus[2].wrmsr_count, 0);
	assert_int_equal(fake_msr_read(2, MSR_EFER), EFER_BOOT);
	assert_int_equal(this_cpu()->spec_ctrl_base, 0);
}

static void test_amd_ibrs_kernel_mode(void **s)
{
	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, 0);
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, 0, 0);
	pf_boot_spec(false);
	assert_true(g_spec_policy.ibrs && g_spec_policy.stibp &&
		    g_spec_policy.ssbd && !g_spec_policy.auto_ibrs);
	assert_int_equal(g_spec_policy.host, SPEC_HOST_KERNEL_IBRS);
	assert_int_equal(g_spec_policy.base, SPEC_CTRL_IBRS);
	assert_true(g_spec_policy.park_lowers);
	assert_int_equal(g_spec_policy.park_val, 0);
	assert_int_equal(g_spec_policy.guest, SPEC_GUEST_SWAP);
	for (unsigned i = 0; i < PF_NCPUS; i++) {
		assert_int_equal(fake_msr_read(i, MSR_SPEC_CTRL),
				 SPEC_CTRL_IBRS);
		assert_int_equal(g_percpu[i]->spec_ctrl_base, SPEC_CTRL_IBRS);
		assert_int_equal(fake_msr_read(i, MSR_EFER), EFER_BOOT);
	}
}

static void test_intel_ibrs_kernel_mode(void **s)
{
	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, 0);
	pf_cpuid_intel(INTEL7_IBRS | INTEL7_STIBP);
	pf_boot_spec(false);
	assert_int_equal(g_spec_policy.host, SPEC_HOST_KERNEL_IBRS);
	assert_int_equal(g_spec_policy.base, SPEC_CTRL_IBRS);
	assert_true(g_spec_policy.park_lowers);
}

static void test_auto_ibrs(void **s)
{
	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, SPEC_CTRL_IBRS); /* firmware left it */
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, AMD21_AUTOIBRS, 0);
	pf_boot_spec(false);
	assert_int_equal(g_spec_policy.host, SPEC_HOST_AUTO_IBRS);
	assert_int_equal(g_spec_policy.base, 0);
	assert_false(g_spec_policy.park_lowers);
	for (unsigned i = 0; i < PF_NCPUS; i++) {
		assert_int_equal(fake_msr_read(i, MSR_EFER),
				 EFER_BOOT | EFER_AUTOIBRS);
		assert_int_equal(fake_msr_read(i, MSR_SPEC_CTRL), 0);
	}
	fake_console_clear();
	spec_policy_log(&g_spec_policy);
	assert_true(fake_console_has(
		"spec: parking: no SPEC_CTRL change needed: AutoIBRS in use"));
}

/* Linux "x86/speculation: Do not enable Automatic IBRS if SEV-SNP is
 * enabled": the same CPU with SNP on uses kernel-mode IBRS. */
static void test_snp_rules_out_auto_ibrs(void **s)
{
	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, 0);
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, AMD21_AUTOIBRS, 0);
	pf_boot_spec(true);
	assert_int_equal(g_spec_policy.host, SPEC_HOST_KERNEL_IBRS);
	assert_int_equal(g_spec_policy.base, SPEC_CTRL_IBRS);
	assert_true(g_spec_policy.park_lowers);
	for (unsigned i = 0; i < PF_NCPUS; i++) {
		assert_int_equal(fake_msr_read(i, MSR_EFER), EFER_BOOT);
		assert_int_equal(fake_msr_read(i, MSR_SPEC_CTRL),
				 SPEC_CTRL_IBRS);
	}
	fake_console_clear();
	spec_policy_log(&g_spec_policy);
	assert_true(fake_console_has(
		"SNP enabled: the host must not rely on AutoIBRS"));
}

static void test_snp_auto_ibrs_without_ibrs(void **s)
{
	struct features f = { .auto_ibrs = true };
	struct spec_policy p = spec_policy_decide(&f, true);

	(void)s;
	assert_int_equal(p.host, SPEC_HOST_NONE);
	assert_false(p.park_lowers);
	f.ibrs = true;
	p = spec_policy_decide(&f, true);
	assert_int_equal(p.host, SPEC_HOST_KERNEL_IBRS);
}

/* IBRS and STIBP come off for parking; SSBD stays as the base has it. */
static void test_park_value_keeps_ssbd(void **s)
{
	struct features f = { .ibrs = true, .stibp = true, .ssbd = true };
	struct spec_policy p = spec_policy_decide(&f, false);

	(void)s;
	assert_int_equal(p.park_val, 0);
	assert_int_equal(spec_park_value(SPEC_CTRL_IBRS | SPEC_CTRL_STIBP |
					 SPEC_CTRL_SSBD),
			 SPEC_CTRL_SSBD);
	assert_int_equal(spec_park_value(SPEC_CTRL_IBRS | SPEC_CTRL_SSBD),
			 SPEC_CTRL_SSBD);
	assert_int_equal(spec_park_value(SPEC_CTRL_IBRS), 0);
	assert_int_equal(spec_park_value(SPEC_CTRL_SSBD), SPEC_CTRL_SSBD);
}

static void test_guest_mode_v_spec_ctrl(void **s)
{
	u64 g = 0x1234;

	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, 0);
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP, 0, SVM_V_SPEC_CTRL);
	pf_boot_spec(false);
	assert_int_equal(g_spec_policy.guest, SPEC_GUEST_V_SPEC_CTRL);
	/* Hardware swaps: neither helper touches the MSR. */
	wrmsr(MSR_SPEC_CTRL, SPEC_CTRL_SSBD); /* "guest left this" */
	fake_trace_clear();
	spec_ctrl_guest_enter(0);
	spec_ctrl_guest_exit(&g);
	assert_int_equal(g, 0x1234);
	assert_string_equal(fake_trace(), "");
}

static void test_guest_swap_minimal_writes(void **s)
{
	u64 g = 0;

	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, 0);
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, 0, 0);
	pf_boot_spec(false);
	assert_int_equal(g_spec_policy.guest, SPEC_GUEST_SWAP);

	/* Guest runs with the host's value: no write either way. */
	spec_ctrl_guest_enter(SPEC_CTRL_IBRS);
	spec_ctrl_guest_exit(&g);
	assert_int_equal(g, SPEC_CTRL_IBRS);
	assert_string_equal(fake_trace(), "");

	/* Guest value differs: one write in, one write out. */
	spec_ctrl_guest_enter(SPEC_CTRL_SSBD);
	assert_string_equal(fake_trace(), "cpu0: wrmsr 0x48 0x4\n");
	wrmsr(MSR_SPEC_CTRL, SPEC_CTRL_STIBP); /* guest wrote it directly */
	fake_trace_clear();
	spec_ctrl_guest_exit(&g);
	assert_int_equal(g, SPEC_CTRL_STIBP);
	assert_string_equal(fake_trace(), "cpu0: wrmsr 0x48 0x1\n");
	assert_int_equal(fake_msr_read(0, MSR_SPEC_CTRL), SPEC_CTRL_IBRS);
}

static void test_guest_none_no_access(void **s)
{
	u64 g = 7;

	(void)s;
	pf_cpuid_amd(0, 0, SVM_V_SPEC_CTRL);
	pf_boot_spec(false); /* SPEC_CTRL undefined: any access fails */
	assert_int_equal(g_spec_policy.guest, SPEC_GUEST_NONE);
	spec_ctrl_guest_enter(1);
	spec_ctrl_guest_exit(&g);
	assert_int_equal(g, 7);
}

static void test_log_tcg(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	features_detect(&g_features);
	spec_ctrl_boot(false);
	assert_true(fake_console_has(
		"spec: CPUID enumerates ibrs=0 stibp=0 ssbd=0 auto-ibrs=0"));
	assert_true(fake_console_has(
		"spec: host protection: none (IBRS not enumerated by CPUID); base SPEC_CTRL 0x0 (no SPEC_CTRL MSR, never written)"));
	assert_true(fake_console_has(
		"spec: parking: no SPEC_CTRL write needed: IBRS not enumerated by CPUID"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup(test_none_enumerated, setup),
		cmocka_unit_test_setup(test_none_cpu_init_writes_nothing,
				       setup),
		cmocka_unit_test_setup(test_amd_ibrs_kernel_mode, setup),
		cmocka_unit_test_setup(test_intel_ibrs_kernel_mode, setup),
		cmocka_unit_test_setup(test_auto_ibrs, setup),
		cmocka_unit_test_setup(test_snp_rules_out_auto_ibrs, setup),
		cmocka_unit_test_setup(test_snp_auto_ibrs_without_ibrs, setup),
		cmocka_unit_test_setup(test_park_value_keeps_ssbd, setup),
		cmocka_unit_test_setup(test_guest_mode_v_spec_ctrl, setup),
		cmocka_unit_test_setup(test_guest_swap_minimal_writes, setup),
		cmocka_unit_test_setup(test_guest_none_no_access, setup),
		cmocka_unit_test_setup(test_log_tcg, setup),
	};

	return cmocka_run_group_tests_name("spec_ctrl", t, NULL, NULL);
}
