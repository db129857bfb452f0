// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vcpu_spec.c - the guest's SPEC_CTRL reaches the hardware
 * around VMRUN: the VMCB field with V_SPEC_CTRL; the software swap is the
 * VMRUN stub's (test_svm_stub). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/vcpu/vcpu.h"
#include "hv/park/spec_ctrl.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/park_fakes.h"

static struct vcpu v;
static struct vmcb vmcb __attribute__((aligned(4096)));

static int setup(void **s)
{
	(void)s;
	pf_reset();
	memset(&v, 0, sizeof(v));
	memset(&vmcb, 0, sizeof(vmcb));
	v.vmcb = &vmcb;
	fake_msr_define(MSR_SPEC_CTRL, 0);
	return 0;
}

static void test_v_spec_ctrl_in_vmcb(void **s)
{
	(void)s;
	pf_cpuid_amd(AMD8_IBRS | AMD8_SSBD, 0, SVM_V_SPEC_CTRL);
	pf_boot_spec(false);
	assert_int_equal(g_spec_policy.guest, SPEC_GUEST_V_SPEC_CTRL);
	v.gprs.spec_ctrl = SPEC_CTRL_SSBD;
	vcpu_spec_enter(&v);
	assert_int_equal(*(u64 *)((u8 *)&vmcb + 0x6e0), SPEC_CTRL_SSBD);
	assert_string_equal(fake_trace(), ""); /* the hardware swaps */
	vmcb.save.spec_ctrl = SPEC_CTRL_IBRS; /* the guest wrote it */
	vcpu_spec_exit(&v);
	assert_int_equal(v.gprs.spec_ctrl, SPEC_CTRL_IBRS);
	assert_string_equal(fake_trace(), "");
}

/* The software swap is the VMRUN stub's (tests/unit/test_svm_stub.c):
 * these two leave the MSR and the VMCB alone then. */
static void test_swap_is_the_stubs(void **s)
{
	(void)s;
	pf_cpuid_amd(AMD8_IBRS | AMD8_SSBD, 0, 0);
	pf_boot_spec(false);
	assert_int_equal(g_spec_policy.guest, SPEC_GUEST_SWAP);
	v.gprs.spec_ctrl = SPEC_CTRL_SSBD;
	vcpu_spec_enter(&v);
	vcpu_spec_exit(&v);
	assert_string_equal(fake_trace(), "");
	assert_int_equal(vmcb.save.spec_ctrl, 0);
	assert_int_equal(v.gprs.spec_ctrl, SPEC_CTRL_SSBD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_v_spec_ctrl_in_vmcb, setup),
		cmocka_unit_test_setup(test_swap_is_the_stubs, setup),
	};
	return cmocka_run_group_tests_name("vcpu_spec", tests, NULL, NULL);
}
