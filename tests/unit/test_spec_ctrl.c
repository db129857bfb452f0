// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_spec_ctrl.c - the speculation policy for each CPUID
 * enumeration, per-CPU setup, and the IBPB between guests on a CPU (the
 * SPEC_CTRL swap around VMRUN is the stub's: test_svm_stub). */
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
	struct spec_policy p = spec_policy_decide(&f, true, TRI_AUTO);

	(void)s;
	assert_int_equal(p.host, SPEC_HOST_NONE);
	assert_false(p.park_lowers);
	f.ibrs = true;
	p = spec_policy_decide(&f, true, TRI_AUTO);
	assert_int_equal(p.host, SPEC_HOST_KERNEL_IBRS);
}

/* IBRS and STIBP come off for parking; SSBD stays as the base has it. */
static void test_park_value_keeps_ssbd(void **s)
{
	struct features f = { .ibrs = true, .stibp = true, .ssbd = true };
	struct spec_policy p = spec_policy_decide(&f, false, TRI_AUTO);

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

/* A2: IBPB when a CPU runs another guest than last time (KVM's
 * svm_vcpu_load() when the VMCB changes), not when the same guest's vCPU
 * comes back; the first guest on a CPU gets one too. Per CPU. */
static void test_ibpb_on_guest_change(void **s)
{
	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, 0);
	fake_msr_define(MSR_PRED_CMD, 0);
	pf_cpuid_amd(AMD8_IBRS | AMD8_SSBD | (1u << 12), 0, 0); /* IBPB */
	pf_boot_spec(false);
	assert_true(g_features.ibpb);
	spec_ctrl_guest_load(7); /* the first guest here */
	assert_int_equal(fake_trace_count("cpu0: wrmsr 0x49 0x1"), 1);
	spec_ctrl_guest_load(7); /* same guest again: none */
	spec_ctrl_guest_load(7);
	assert_int_equal(fake_trace_count("wrmsr 0x49"), 1);
	spec_ctrl_guest_load(8); /* another guest */
	assert_int_equal(fake_trace_count("cpu0: wrmsr 0x49 0x1"), 2);
	spec_ctrl_guest_load(7); /* and back */
	assert_int_equal(fake_trace_count("cpu0: wrmsr 0x49 0x1"), 3);
	/* CPU 1 keeps its own last guest. */
	fake_cpu_select(1);
	spec_ctrl_guest_load(7);
	spec_ctrl_guest_load(7);
	assert_int_equal(fake_trace_count("cpu1: wrmsr 0x49 0x1"), 1);
	fake_cpu_select(0);
	spec_ctrl_guest_load(7);
	assert_int_equal(fake_trace_count("cpu0: wrmsr 0x49 0x1"), 3);
}

/* Without IBPB (TCG's EPYC) nothing is written, and nothing fails. */
static void test_ibpb_not_enumerated(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	pf_boot_spec(false); /* PRED_CMD undefined: a write fails */
	spec_ctrl_guest_load(1);
	spec_ctrl_guest_load(2);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
}

static void test_log_tcg(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	features_detect(&g_features);
	spec_ctrl_boot(false, TRI_AUTO);
	assert_true(fake_console_has(
		"spec: CPUID enumerates ibrs=0 stibp=0 ssbd=0 auto-ibrs=0"));
	assert_true(fake_console_has(
		"spec: host protection: none (IBRS not enumerated by CPUID); base SPEC_CTRL 0x0 (no SPEC_CTRL MSR, never written)"));
	assert_true(fake_console_has(
		"spec: parking: no SPEC_CTRL write needed: IBRS not enumerated by CPUID"));
}

/* The RSB fill after #VMEXIT (Linux's X86_FEATURE_RSB_VMEXIT), decided
 * once at boot: what spec_ctrl_svm_host() then hands the stub. */
static void boot_rsb(enum tristate opt, bool want, const char *why)
{
	struct svm_host h;

	fake_msr_define(MSR_SPEC_CTRL, 0);
	fake_msr_define(MSR_EFER, EFER_BOOT);
	pf_rsb_fill = opt;
	pf_boot_spec(false);
	assert_int_equal(g_spec_policy.rsb_fill, want);
	assert_string_equal(g_spec_policy.rsb_why, why);
	spec_ctrl_svm_host(&h);
	assert_int_equal(!!(h.flags & SVM_HOST_RSB_FILL), want);
}

#define NO_AUTOIBRS \
	"no AutoIBRS in use: guest RSB entries could steer host RETs"
#define AUTOIBRS "AutoIBRS: guest RSB entries do not steer host RETs"
#define TCG "QEMU TCG, CPUID 0x40000000 TCGTCGTCGTCG: no speculation"

/* Zen 2 (Rome: IBRS, no V_SPEC_CTRL) and Zen 3 (Milan: V_SPEC_CTRL), no
 * AutoIBRS, on hardware: fill. */
static void test_rsb_zen2_zen3_fill(void **s)
{
	(void)s;
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, 0, 0);
	boot_rsb(TRI_AUTO, true, NO_AUTOIBRS);
	assert_false(g_features.hypervisor || g_features.tcg);
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, 0, SVM_V_SPEC_CTRL);
	boot_rsb(TRI_AUTO, true, NO_AUTOIBRS);
	/* Nothing SPEC_CTRL can do still speculates: fill. */
	pf_cpuid_amd(0, 0, 0);
	boot_rsb(TRI_AUTO, true, NO_AUTOIBRS);
}

/* Genoa and Turin enumerate AutoIBRS: no fill (Linux: eIBRS, no PBRSB on
 * AMD). With SNP enabled the host does not use AutoIBRS: fill again. */
static void test_rsb_genoa_turin_auto_ibrs_no_fill(void **s)
{
	struct spec_policy p;

	(void)s;
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, AMD21_AUTOIBRS,
		     SVM_V_SPEC_CTRL);
	boot_rsb(TRI_AUTO, false, AUTOIBRS);
	p = spec_policy_decide(&g_features, true, TRI_AUTO);
	assert_int_equal(p.host, SPEC_HOST_KERNEL_IBRS);
	assert_true(p.rsb_fill);
	assert_string_equal(p.rsb_why, NO_AUTOIBRS);
}

/* QEMU TCG: signature "TCGTCGTCGTCG" at leaf 0x40000000 (the hypervisor
 * bit set, as QEMU's EPYC models have it): no fill, whatever it
 * enumerates (QEMU's EPYC-Genoa model has AutoIBRS). */
static void test_rsb_tcg_no_fill(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	pf_cpuid_hypervisor("TCGTCGTCGTCG");
	boot_rsb(TRI_AUTO, false, TCG);
	assert_true(g_features.hypervisor && g_features.tcg);
	assert_string_equal(g_features.hv_sig, "TCGTCGTCGTCG");
	pf_cpuid_amd(AMD8_IBRS, AMD21_AUTOIBRS, 0);
	pf_cpuid_hypervisor("TCGTCGTCGTCG");
	boot_rsb(TRI_AUTO, false, TCG);
	/* The signature without the hypervisor bit is not read: a CPU
	 * that does not say it is virtualized is taken as hardware. */
	pf_cpuid_amd(0, 0, 0);
	fake_cpuid_set(0x40000000, 0, 0x40000001, 0x54474354, 0x43544743,
		       0x47435447);
	boot_rsb(TRI_AUTO, true, NO_AUTOIBRS);
	assert_false(g_features.tcg);
}

/* Nested under KVM on an AMD host ("KVMKVMKVM\0\0\0", the hypervisor bit
 * set): the real CPU speculates, so the hypervisor bit alone is no reason
 * to skip the fill; AutoIBRS passed through still is. */
static void test_rsb_kvm_fill(void **s)
{
	(void)s;
	pf_cpuid_amd(AMD8_IBRS | AMD8_SSBD, 0, 0);
	pf_cpuid_hypervisor("KVMKVMKVM\0\0\0");
	boot_rsb(TRI_AUTO, true, NO_AUTOIBRS);
	assert_true(g_features.hypervisor);
	assert_false(g_features.tcg);
	assert_string_equal(g_features.hv_sig, "KVMKVMKVM");
	pf_cpuid_amd(AMD8_IBRS | AMD8_SSBD, AMD21_AUTOIBRS, 0);
	pf_cpuid_hypervisor("KVMKVMKVM\0\0\0");
	boot_rsb(TRI_AUTO, false, AUTOIBRS);
	/* Another emulator-looking but unknown signature: fill. */
	pf_cpuid_amd(0, 0, 0);
	pf_cpuid_hypervisor("TCGTCGTCGTCX");
	boot_rsb(TRI_AUTO, true, NO_AUTOIBRS);
}

/* rsb_fill=on|off wins over every reason, each way. */
static void test_rsb_option_forces(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	pf_cpuid_hypervisor("TCGTCGTCGTCG");
	boot_rsb(TRI_ON, true, "rsb_fill=on");
	pf_cpuid_amd(AMD8_IBRS, AMD21_AUTOIBRS, SVM_V_SPEC_CTRL);
	boot_rsb(TRI_ON, true, "rsb_fill=on");
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, 0, 0);
	boot_rsb(TRI_OFF, false, "rsb_fill=off");
	pf_cpuid_amd(AMD8_IBRS, 0, 0);
	pf_cpuid_hypervisor("KVMKVMKVM\0\0\0");
	boot_rsb(TRI_OFF, false, "rsb_fill=off");
}

/* One line beside the other spec: lines says what was decided and why. */
static void test_rsb_log(void **s)
{
	(void)s;
	pf_cpuid_amd(0, 0, 0);
	pf_cpuid_hypervisor("TCGTCGTCGTCG");
	features_detect(&g_features);
	spec_ctrl_boot(false, TRI_AUTO);
	assert_true(fake_console_has("spec: RSB fill after #VMEXIT: off (" TCG
				     ")\n"));
	fake_console_clear();
	spec_ctrl_boot(false, TRI_ON);
	assert_true(fake_console_has(
		"spec: RSB fill after #VMEXIT: on (rsb_fill=on)\n"));
	fake_console_clear();
	pf_cpuid_amd(AMD8_IBRS, 0, 0);
	features_detect(&g_features);
	spec_ctrl_boot(false, TRI_AUTO);
	assert_true(fake_console_has(
		"spec: RSB fill after #VMEXIT: on (" NO_AUTOIBRS ")\n"));
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
		cmocka_unit_test_setup(test_ibpb_on_guest_change, setup),
		cmocka_unit_test_setup(test_ibpb_not_enumerated, setup),
		cmocka_unit_test_setup(test_log_tcg, setup),
		cmocka_unit_test_setup(test_rsb_zen2_zen3_fill, setup),
		cmocka_unit_test_setup(test_rsb_genoa_turin_auto_ibrs_no_fill,
				       setup),
		cmocka_unit_test_setup(test_rsb_tcg_no_fill, setup),
		cmocka_unit_test_setup(test_rsb_kvm_fill, setup),
		cmocka_unit_test_setup(test_rsb_option_forces, setup),
		cmocka_unit_test_setup(test_rsb_log, setup),
	};

	return cmocka_run_group_tests_name("spec_ctrl", t, NULL, NULL);
}
