// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits_msr.c - MSR exits against a fake guest: the
 * allow-list, the VMCB-swapped MSRs and their canonical rule, TSC_AUX,
 * TSC_ADJUST and MISC_ENABLE of platform guests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/svm/exit.h"
#include "hv/vmcb/exit_decode.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

static void test_msr(void **s)
{
	struct vmcb_save *sv = &fx_v[0]->vmcb->save;

	(void)s;
	fake_msr_define(MSR_VM_HSAVE_PA, 0x5000);
	fake_msr_define(MSR_SPEC_CTRL, 0);
	/* EFER reads without SVME. */
	fx_msr(MSR_EFER, false, 0);
	fx_expect_ok();
	assert_int_equal(sv->rax, EFER_LME | EFER_LMA);
	/* Setting NXE works, SVME stays set underneath. */
	fx_msr(MSR_EFER, true, EFER_LME | EFER_LMA | EFER_NXE);
	fx_expect_ok();
	assert_int_equal(sv->efer, EFER_LME | EFER_LMA | EFER_NXE | EFER_SVME);
	/* The guest cannot set EFER.SVME (SVM is hidden) nor clear LME
	 * with paging on. */
	fx_msr(MSR_EFER, true, EFER_LME | EFER_LMA | EFER_SVME);
	fx_expect_gp();
	fx_msr(MSR_EFER, true, 0);
	fx_expect_gp();
	assert_true(sv->efer & EFER_SVME);
	/* Host-critical MSRs: #GP, hardware untouched. */
	fx_msr(MSR_VM_HSAVE_PA, true, 0);
	fx_expect_gp();
	fx_msr(MSR_VM_HSAVE_PA, false, 0);
	fx_expect_gp();
	fx_msr(MSR_VM_CR, true, 0);
	fx_expect_gp();
	fx_msr(MSR_APIC_BASE, true, 0);
	fx_expect_gp();
	fx_msr(MSR_MTRR_PHYSBASE(0), true, 6);
	fx_expect_gp();
	assert_int_equal(fake_cpus[0].wrmsr_count, 0);
	assert_int_equal(fake_msr_read(0, MSR_VM_HSAVE_PA), 0x5000);
	assert_true(fake_console_has(
		"MSR 0xc0010117 (SVM control, host-critical) -> #GP"));
	/* SPEC_CTRL is a per-vCPU shadow. */
	fx_msr(MSR_SPEC_CTRL, true, SPEC_CTRL_IBRS);
	fx_expect_ok();
	assert_int_equal(fx_v[0]->gprs.spec_ctrl, SPEC_CTRL_IBRS);
	assert_int_equal(fake_cpus[0].wrmsr_count, 0);
	fx_msr(MSR_SPEC_CTRL, true, 1ULL << 40);
	fx_expect_gp();
	/* Unknown MSRs: #GP, both directions. */
	fx_msr(0x1234, false, 0);
	fx_expect_gp();
	fx_msr(MSR_AMD_DE_CFG, true, 0);
	fx_expect_gp();
	/* PAT: valid types only. */
	fx_msr(MSR_PAT, true, 0x0606060606060606ULL);
	fx_expect_ok();
	assert_int_equal(sv->g_pat, 0x0606060606060606ULL);
	fx_msr(MSR_PAT, true, 0x0202020202020202ULL);
	fx_expect_gp();
	/* APIC base read: a fixed, BSP view. */
	fx_msr(MSR_APIC_BASE, false, 0);
	fx_expect_ok();
	assert_int_equal(sv->rax, 0xfee00000 | APIC_BASE_EN | APIC_BASE_BSP);
	assert_int_equal(fx_v[0]->stats.count[EK_MSR], 16);
	assert_int_equal(fx_v[0]->stats.msr_gp, 11);
}

static void test_msr_swapped_and_aux(void **s)
{
	struct vmcb_save *sv = &fx_v[0]->vmcb->save;

	(void)s;
	/* Canonical addresses land in the VMCB, non-canonical get #GP. */
	fx_msr(MSR_KERNEL_GS_BASE, true, 0xffff800012345000ULL);
	fx_expect_ok();
	assert_int_equal(sv->kernel_gs_base, 0xffff800012345000ULL);
	fx_msr(MSR_KERNEL_GS_BASE, true, 0x0000800000000000ULL);
	fx_expect_gp();
	assert_int_equal(sv->kernel_gs_base, 0xffff800012345000ULL);
	fx_msr(MSR_LSTAR, true, 0x00007fffffffffffULL);
	fx_expect_ok();
	assert_int_equal(sv->lstar, 0x00007fffffffffffULL);
	fx_msr(MSR_FS_BASE, true, 0x1000);
	fx_expect_ok();
	assert_int_equal(sv->fs.base, 0x1000);
	fx_msr(MSR_GS_BASE, true, 1ULL << 60);
	fx_expect_gp();
	/* With 5-level paging in the CPU, 57 bits, whatever CR4.LA57 says */
	fx_msr(MSR_FS_BASE, true, 0xffaaaaaaaaaaaaaaULL);
	fx_expect_gp();
	g_features.la57 = true;
	fx_msr(MSR_FS_BASE, true, 0xffaaaaaaaaaaaaaaULL);
	fx_expect_ok();
	assert_int_equal(sv->fs.base, 0xffaaaaaaaaaaaaaaULL);
	fx_msr(MSR_FS_BASE, true, 0xaaaaaaaaaaaaaaaaULL);
	fx_expect_gp();
	g_features.la57 = false;
	fx_msr(MSR_SFMASK, true, 1ULL << 32);
	fx_expect_gp();
	fx_msr(MSR_STAR, true, 0x0023001000000000ULL);
	fx_expect_ok();
	assert_int_equal(sv->star, 0x0023001000000000ULL);
	/* TSC_AUX: kept per vCPU and put in the hardware MSR for RDTSCP. */
	g_features.rdtscp = true;
	fake_msr_define(MSR_TSC_AUX, 0);
	fx_msr(MSR_TSC_AUX, true, 0x1234);
	fx_expect_ok();
	assert_int_equal(fx_v[0]->tsc_aux, 0x1234);
	assert_int_equal(fake_msr_read(0, MSR_TSC_AUX), 0x1234);
	fx_msr(MSR_TSC_AUX, false, 0);
	fx_expect_ok();
	assert_int_equal(sv->rax, 0x1234);
	fx_msr(MSR_TSC_AUX, true, 1ULL << 32);
	fx_expect_gp();
	assert_int_equal(fake_msr_read(0, MSR_TSC_AUX), 0x1234);
}

/* IA32_TSC_ADJUST (SDM vol 3B 18.17.3) for a platform guest, when the
 * CPU has it (g_features, decided at boot): a write moves the guest's TSC
 * offset by the difference; without the feature it is #GP. */
static void test_tsc_adjust(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_platform(v);
	g_features.tsc_adjust = false;
	fx_msr(MSR_TSC_ADJUST, true, 5);
	fx_expect_gp();
	g_features.tsc_adjust = true;
	v->vmcb->control.tsc_offset = 1000;
	fx_msr(MSR_TSC_ADJUST, true, 5);
	fx_expect_ok();
	assert_int_equal(v->vmcb->control.tsc_offset, 1005);
	fx_msr(MSR_TSC_ADJUST, false, 0);
	fx_expect_ok();
	assert_int_equal(v->vmcb->save.rax, 5);
	fx_msr(MSR_TSC_ADJUST, true, 2);
	assert_int_equal(v->vmcb->control.tsc_offset, 1002);
	g_features.tsc_adjust = false;
}

/* IA32_MISC_ENABLE: a per-vCPU store for platform guests (as KVM and
 * QEMU give every guest), fast strings on after reset; #GP for the
 * built-in guest, as on AMD hardware. */
static void test_misc_enable(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_msr(MSR_MISC_ENABLE, false, 0);
	fx_expect_gp();
	fx_platform(v);
	vcpu_reset(v, 0, 0, 0);
	fx_msr(MSR_MISC_ENABLE, false, 0);
	fx_expect_ok();
	assert_int_equal(v->vmcb->save.rax, MISC_ENABLE_FAST_STRING);
	fx_msr(MSR_MISC_ENABLE, true, 0x400c50809ULL);
	fx_expect_ok();
	fx_msr(MSR_MISC_ENABLE, false, 0);
	assert_int_equal(v->vmcb->save.rax, 0x00c50809);
	assert_int_equal(v->gprs.rdx, 4);
	assert_int_equal(fx_v[1]->misc_enable, 0); /* its own */
}

#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_msr),
		T(test_msr_swapped_and_aux),
		T(test_tsc_adjust),
		T(test_misc_enable),
	};

	return cmocka_run_group_tests_name("exits_msr", tests, NULL, NULL);
}
