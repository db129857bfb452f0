// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vcpu_pkrs.c - IA32_PKRS (0x6E1, SDM vol 3A 4.6.2) through
 * MSR exits and the vCPU enter/exit hooks: a value per vCPU in the MSR of
 * its own CPU, 0 at vCPU start and after it leaves, #GP for bits 63:32 and
 * without PKS, PKS in CPUID only when minhv virtualizes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/vcpu/vcpu_pkrs.h"
#include "hv/cpuid/cpuid.h"
#include "hv/svm/exit.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

#define RIP0 0x100000ULL
#define GP_EVENT \
	(VEC_GP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID | EVENTINJ_EV)
#define CPUID7_ECX_PKS BIT(31)

/* v's RDMSR/WRMSR of PKRS as an MSR exit on fake CPU v->id (vCPU n runs
 * on CPU n); returns the injected event (0 or GP_EVENT). */
static u64 pkrs_exit(struct vcpu *v, bool wr, u64 val)
{
	fake_cpu_select(v->id);
	fx_exit(v, VMEXIT_MSR, wr, 0);
	v->gprs.rcx = MSR_PKRS;
	v->vmcb->save.rax = wr ? (u32)val : 0xdeadbeef;
	v->gprs.rdx = wr ? val >> 32 : 0xdeadbeef;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	if (v->vmcb->control.event_inj)
		assert_int_equal(v->vmcb->save.rip, RIP0); /* not skipped */
	else
		assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	return v->vmcb->control.event_inj;
}

/* What the guest's RDMSR returns in EDX:EAX. */
static u64 pkrs_rdmsr(struct vcpu *v)
{
	assert_int_equal(pkrs_exit(v, false, 0), 0);
	return (v->gprs.rdx << 32) | (u32)v->vmcb->save.rax;
}

static void have_pks(void)
{
	g_features.pks = true;
	fake_msr_define(MSR_PKRS, 0);
}

/* Decided once from CPUID 7.0:ECX[31], whatever the vendor (minhv runs on
 * AMD; the leaf used to be read on Intel only). */
static void test_pkrs_feature_decoded(void **s)
{
	struct features f;

	(void)s;
	fake_cpuid_vendor("AuthenticAMD");
	features_detect(&f);
	assert_false(f.pks);
	fake_cpuid_set(7, 0, 0, 0, CPUID7_ECX_PKS, 0);
	features_detect(&f);
	assert_true(f.pks);
}

/* Each vCPU reads back what it wrote, and its write reaches the MSR of its
 * own CPU only. */
static void test_pkrs_round_trip_per_vcpu(void **s)
{
	(void)s;
	have_pks();
	assert_int_equal(pkrs_exit(fx_v[0], true, 0x55555555), 0);
	assert_int_equal(pkrs_exit(fx_v[1], true, 0x0000000c), 0);
	assert_int_equal(fake_msr_read(0, MSR_PKRS), 0x55555555);
	assert_int_equal(fake_msr_read(1, MSR_PKRS), 0x0000000c);
	assert_int_equal(pkrs_rdmsr(fx_v[0]), 0x55555555);
	assert_int_equal(pkrs_rdmsr(fx_v[1]), 0x0000000c);
	/* The highest legal value: all 32 bits. */
	assert_int_equal(pkrs_exit(fx_v[0], true, 0xffffffff), 0);
	assert_int_equal(pkrs_rdmsr(fx_v[0]), 0xffffffff);
	assert_int_equal(fake_msr_read(0, MSR_PKRS), 0xffffffff);
	assert_int_equal(pkrs_rdmsr(fx_v[1]), 0x0000000c);
}

/* Architectural reset value 0: a new vCPU reads 0 and starts with 0 in
 * the MSR whatever its CPU held; vcpu_reset() (HC_VCPU_START, INIT-SIPI)
 * brings it back to 0. */
static void test_pkrs_reset_value(void **s)
{
	(void)s;
	have_pks();
	assert_int_equal(pkrs_rdmsr(fx_v[2]), 0);
	fake_cpu_select(2);
	wrmsr(MSR_PKRS, 0x33); /* left by someone */
	vcpu_pkrs_enter(fx_v[2]);
	assert_int_equal(fake_msr_read(2, MSR_PKRS), 0);
	assert_int_equal(pkrs_exit(fx_v[2], true, 0x30), 0);
	vcpu_reset(fx_v[2], RIP0, 0x8000, 0);
	assert_int_equal(pkrs_rdmsr(fx_v[2]), 0);
	vcpu_pkrs_enter(fx_v[2]);
	assert_int_equal(fake_msr_read(2, MSR_PKRS), 0);
}

/* Bits 63:32 are reserved: WRMSR #GP, nothing changes. */
static void test_pkrs_reserved_bits_gp(void **s)
{
	(void)s;
	have_pks();
	assert_int_equal(pkrs_exit(fx_v[0], true, 0x4), 0);
	assert_int_equal(pkrs_exit(fx_v[0], true, 1ULL << 32), GP_EVENT);
	assert_int_equal(pkrs_exit(fx_v[0], true, 0x8000000000000004ULL),
			 GP_EVENT);
	assert_int_equal(pkrs_rdmsr(fx_v[0]), 0x4);
	assert_int_equal(fake_msr_read(0, MSR_PKRS), 0x4);
}

/* Without PKS the MSR does not exist: both directions #GP, the hardware is
 * never touched, and CPUID does not show PKS even where leaf 7 has it. */
static void test_pkrs_without_pks(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fake_cpuid_set(0, 0, 7, 0, 0, 0);
	fake_cpuid_set(7, 0, 0, 0, CPUID7_ECX_PKS, 0);
	cpuid_host_capture(&g_cpuid_host); /* as svm_init() at boot */
	assert_int_equal(pkrs_exit(v, true, 0), GP_EVENT);
	assert_int_equal(pkrs_exit(v, false, 0), GP_EVENT);
	vcpu_pkrs_enter(v);
	vcpu_pkrs_exit(v);
	assert_int_equal(fake_cpus[0].wrmsr_count, 0);
	v->vmcb->save.rax = 7;
	v->gprs.rcx = 0;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_false(v->gprs.rcx & CPUID7_ECX_PKS);
	/* With PKS it is passed through. */
	g_features.pks = true;
	v->vmcb->save.rax = 7;
	v->gprs.rcx = 0;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_true(v->gprs.rcx & CPUID7_ECX_PKS);
}

/* Two vCPUs (of any guests) taking turns on CPU 0: each finds its own
 * value in the MSR, and the MSR is 0 between them. */
static void test_pkrs_no_leak_on_one_cpu(void **s)
{
	struct vcpu *a = fx_v[0], *b = fx_v[3];

	(void)s;
	have_pks();
	b->id = 0; /* another guest's vCPU 0: the same CPU */
	vcpu_pkrs_enter(a);
	assert_int_equal(pkrs_exit(a, true, 0xaaaa), 0);
	vcpu_pkrs_exit(a);
	assert_int_equal(fake_msr_read(0, MSR_PKRS), 0);
	vcpu_pkrs_enter(b);
	assert_int_equal(fake_msr_read(0, MSR_PKRS), 0);
	assert_int_equal(pkrs_rdmsr(b), 0);
	assert_int_equal(pkrs_exit(b, true, 0x5), 0);
	vcpu_pkrs_exit(b);
	assert_int_equal(fake_msr_read(0, MSR_PKRS), 0);
	vcpu_pkrs_enter(a);
	assert_int_equal(fake_msr_read(0, MSR_PKRS), 0xaaaa);
	assert_int_equal(pkrs_rdmsr(a), 0xaaaa);
	vcpu_pkrs_exit(a);
	b->id = 3;
}

#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_pkrs_feature_decoded), T(test_pkrs_round_trip_per_vcpu),
		T(test_pkrs_reset_value),     T(test_pkrs_reserved_bits_gp),
		T(test_pkrs_without_pks),     T(test_pkrs_no_leak_on_one_cpu),
	};
	return cmocka_run_group_tests_name("vcpu_pkrs", tests, NULL, NULL);
}
