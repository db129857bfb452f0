// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vcpu_fpu.c - nothing of one guest's vector registers,
 * XCR0 or DR0-DR3 reaches the next guest on the same CPU: the order of the
 * XRSTOR/XSETBV/XSAVE/DR writes around a vCPU's run against the CPU double,
 * the init state of a fresh vCPU, and the XSETBV rules (SDM vol 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/features.h"
#include "hv/vcpu/vcpu.h"
#include "hv/vcpu/vcpu_fpu.h"
#include "tests/doubles/fake_cpu.h"

#define HOST_XCR0 (XCR0_X87 | XCR0_SSE | XCR0_AVX)

static struct vcpu va, vb;
static void *area_a, *area_b;

static void boot(bool xsave)
{
	struct features f = { 0 };

	f.fxsr = true;
	f.xsave = xsave;
	f.xcr0_supported = HOST_XCR0;
	f.xsave_size = 832; /* legacy + header + AVX */
	fpu_boot(&f);
	fake_cpus[0].cr4 = 0x6a0;
	fpu_cpu_init();
	area_a = aligned_alloc(4096, 4096 * vcpu_fpu_pages());
	area_b = aligned_alloc(4096, 4096 * vcpu_fpu_pages());
	memset(&va, 0, sizeof(va));
	memset(&vb, 0, sizeof(vb));
	vcpu_fpu_init(&va, area_a);
	vcpu_fpu_init(&vb, area_b);
	fake_trace_clear();
}

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_cpus[0].dr[2] = 0x1234; /* left by the firmware */
	memset(fake_cpus[0].vec, 0x77, sizeof(fake_cpus[0].vec));
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(area_a);
	free(area_b);
	area_a = area_b = NULL;
	return 0;
}

static bool vec_is(u8 b)
{
	for (unsigned i = 0; i < sizeof(fake_cpus[0].vec); i++)
		if (fake_cpus[0].vec[i] != b)
			return false;
	return true;
}

/* What a guest does while it runs: XSETBV (intercepted), vector and DR
 * writes (not intercepted: straight into the hardware). */
static void guest_dirties(struct vcpu *v)
{
	vcpu_fpu_set_xcr0(v, XCR0_X87 | XCR0_SSE);
	memset(fake_cpus[0].vec, 0xa5, sizeof(fake_cpus[0].vec));
	write_dr(0, 0xdead0000);
	write_dr(3, 0xdead0300);
}

static void test_cpu_init(void **s)
{
	(void)s;
	boot(true);
	assert_int_equal(g_fpu.mode, FPU_XSAVE);
	assert_int_equal(g_fpu.xcr0, HOST_XCR0);
	assert_int_equal(vcpu_fpu_pages(), 1);
	/* OSFXSR, OSXMMEXCPT, OSXSAVE; host XCR0; clean; DRs 0. */
	assert_int_equal(fake_cpus[0].cr4 &
				 (CR4_OSFXSR | CR4_OSXMMEXCPT | CR4_OSXSAVE),
			 CR4_OSFXSR | CR4_OSXMMEXCPT | CR4_OSXSAVE);
	assert_int_equal(fake_cpus[0].xcr0, HOST_XCR0);
	assert_true(vec_is(0));
	assert_int_equal(fake_cpus[0].dr[2], 0);
	/* A fresh vCPU: XCR0 at reset, init image (XSTATE_BV 0, MXCSR). */
	assert_int_equal(va.xcr0, XCR0_RESET);
	assert_int_equal(*(u64 *)((u8 *)area_a + XSAVE_HDR), 0);
	assert_int_equal(*(u32 *)((u8 *)area_a + FXSAVE_MXCSR), MXCSR_INIT);
}

static void test_no_xsave_no_osxsave(void **s)
{
	(void)s;
	boot(false);
	assert_int_equal(g_fpu.mode, FPU_FXSAVE);
	assert_int_equal(fake_cpus[0].cr4 & CR4_OSXSAVE, 0);
	assert_int_equal(fake_trace_count("xsetbv"), 0);
}

static void test_run_order(void **s)
{
	(void)s;
	boot(true);
	vcpu_fpu_enter(&va);
	guest_dirties(&va);
	fake_trace_note("vmrun");
	vcpu_fpu_exit(&va);
	/* In: the vCPU's image under the host XCR0, then its XCR0. Out: DRs
	 * saved and cleared, host XCR0 back before XSAVE (it saves only
	 * what XCR0 enables), then the init state. */
	assert_string_equal(fake_trace(), "cpu0: xrstor 0x7 bv 0\n"
					  "cpu0: xsetbv 0 0x1\n"
					  "cpu0: xsetbv 0 0x3\n"
					  "cpu0: dr0 0xdead0000\n"
					  "cpu0: dr3 0xdead0300\n"
					  "cpu0: vmrun\n"
					  "cpu0: dr0 0\n"
					  "cpu0: dr3 0\n"
					  "cpu0: xsetbv 0 0x7\n"
					  "cpu0: xsave 0x7\n"
					  "cpu0: xrstor 0x7 bv 0\n");
	assert_int_equal(va.xcr0, XCR0_X87 | XCR0_SSE);
	assert_int_equal(va.dr[0], 0xdead0000);
	assert_int_equal(va.dr[3], 0xdead0300);
}

static void test_next_guest_sees_clean_state(void **s)
{
	(void)s;
	boot(true);
	vcpu_fpu_enter(&va);
	guest_dirties(&va);
	vcpu_fpu_exit(&va);
	/* The host between guests: host XCR0, nothing of A. */
	assert_int_equal(fake_cpus[0].xcr0, HOST_XCR0);
	assert_true(vec_is(0));
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(fake_cpus[0].dr[i], 0);
	/* B, a fresh vCPU on the same CPU: reset XCR0, init registers. */
	vcpu_fpu_enter(&vb);
	assert_int_equal(fake_cpus[0].xcr0, XCR0_RESET);
	assert_true(vec_is(0));
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(fake_cpus[0].dr[i], 0);
	vcpu_fpu_exit(&vb);
	/* A again: its own registers, XCR0 and DRs come back. */
	vcpu_fpu_enter(&va);
	assert_true(vec_is(0xa5));
	assert_int_equal(fake_cpus[0].xcr0, XCR0_X87 | XCR0_SSE);
	assert_int_equal(fake_cpus[0].dr[0], 0xdead0000);
	vcpu_fpu_exit(&va);
}

static void test_fxsave_path(void **s)
{
	(void)s;
	boot(false);
	vcpu_fpu_enter(&va);
	memset(fake_cpus[0].vec, 0xa5, sizeof(fake_cpus[0].vec));
	vcpu_fpu_exit(&va);
	assert_string_equal(fake_trace(), "cpu0: fxrstor\n"
					  "cpu0: fxsave\n"
					  "cpu0: fxrstor\n");
	assert_true(vec_is(0));
	vcpu_fpu_enter(&vb);
	assert_true(vec_is(0));
	vcpu_fpu_exit(&vb);
	vcpu_fpu_enter(&va);
	assert_true(vec_is(0xa5));
}

static void test_xcr0_rules(void **s)
{
	const u64 all = XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_BNDREGS |
			XCR0_BNDCSR | XCR0_AVX512 | XCR0_PKRU;

	(void)s;
	assert_true(xcr0_valid(all, 0, XCR0_X87));
	assert_true(xcr0_valid(all, 0, XCR0_X87 | XCR0_SSE));
	assert_true(xcr0_valid(all, 0, XCR0_X87 | XCR0_SSE | XCR0_AVX));
	assert_true(xcr0_valid(all, 0, all));
	assert_false(xcr0_valid(all, 1, XCR0_X87)); /* ECX != 0 */
	assert_false(xcr0_valid(all, 0, XCR0_SSE)); /* x87 clear */
	assert_false(xcr0_valid(all, 0, 0));
	assert_false(xcr0_valid(all, 0, XCR0_X87 | XCR0_AVX)); /* no SSE */
	assert_false(xcr0_valid(all, 0, XCR0_X87 | BIT(63))); /* reserved */
	assert_false(xcr0_valid(all, 0, XCR0_X87 | BIT(8))); /* supervisor */
	/* Not in the host's XCR0. */
	assert_false(xcr0_valid(HOST_XCR0, 0,
				XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_AVX512));
	/* AVX-512: all three, and with AVX. */
	assert_false(xcr0_valid(all, 0, HOST_XCR0 | XCR0_OPMASK));
	assert_false(
		xcr0_valid(all, 0, HOST_XCR0 | XCR0_OPMASK | XCR0_ZMM_HI256));
	assert_false(xcr0_valid(all, 0, XCR0_X87 | XCR0_SSE | XCR0_AVX512));
	assert_true(xcr0_valid(all, 0, HOST_XCR0 | XCR0_AVX512));
	/* MPX: both or neither. */
	assert_false(xcr0_valid(all, 0, XCR0_X87 | XCR0_BNDREGS));
	assert_true(xcr0_valid(all, 0, XCR0_X87 | XCR0_BNDREGS | XCR0_BNDCSR));
	/* AMX: never enabled by the host, and both or neither. */
	assert_false(xcr0_valid(all | XCR0_TILECFG | XCR0_TILEDATA, 0,
				HOST_XCR0 | XCR0_TILECFG));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_cpu_init),    T(test_no_xsave_no_osxsave),
		T(test_run_order),   T(test_next_guest_sees_clean_state),
		T(test_fxsave_path), T(test_xcr0_rules),
	};
	return cmocka_run_group_tests_name("vcpu_fpu", tests, NULL, NULL);
}
