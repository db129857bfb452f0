// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits_hw.c - what real EPYC or nested KVM would show and
 * TCG does not: INVD/WBINVD intercepted and skipped, #DB/#AC reflected and
 * #MC (or a SHUTDOWN with MCIP) stopping the guest with its banks logged and
 * cleared, EXITINTINFO re-injected, SEV/SVM leaves hidden. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/vcpu/vcpu_fpu.h"
#include "hv/cpuid/cpuid.h"
#include "hv/svm/exit.h"
#include "hv/vmcb/exit_decode.h"
#include "hv/ras/internal.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

#define RIP0 0x100000ULL

static struct vmcb *built(void)
{
	static const struct vmcb_guest vg = {
		.asid = 1,
		.iopm = { 0x200000 },
		.msrpm = { 0x204000 },
		.ncr3 = { 0x300000 },
		.cr3 = 0x10000,
		.rip = { 0x100040 },
		.rsp = { 0x4000000 },
	};
	struct pause_policy p = { 0 };
	struct features f = { 0 };
	struct vmcb *v = aligned_alloc(4096, sizeof(*v));

	f.svm = f.npt = f.nx = true;
	vmcb_build(v, &f, &p, &vg);
	return v;
}

/* KVM intercepts INVD and WBINVD (WBNOINVD exits as WBINVD, APM vol 3
 * WBNOINVD): a guest INVD would discard the host's dirty lines. */
static void test_cache_intercepts(void **s)
{
	struct vmcb *v = built();

	(void)s;
	assert_true(v->control.intercept1 & BIT(22)); /* INVD */
	assert_true(v->control.intercept2 & BIT(9)); /* WBINVD, WBNOINVD */
	free(v);
}

static void test_invd_wbinvd_skipped(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	assert_int_equal(fx_run(0x76, 0, 0), EXIT_RESUME); /* INVD 0F 08 */
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(fx_run(0x89, 0, 0), EXIT_RESUME); /* WBINVD 0F 09 */
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	/* Emulated as no-ops: the host cache is not touched either. */
	assert_int_equal(fake_cpus[0].wbinvd_count, 0);
	/* With NRIP, a 3-byte WBNOINVD (F3 0F 09) is stepped over too. */
	g_features.nrips = true;
	fx_exit(v, 0x89, 0, 0);
	v->vmcb->control.next_rip = RIP0 + 3;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 3);
	assert_false(fx_g->stopping);
}

/* KVM since CVE-2015-5307 / CVE-2015-8104: #AC and #DB intercepted so an
 * endless delivery loop leaves guest mode; #MC goes to the host. */
static void test_exception_intercepts(void **s)
{
	struct vmcb *v = built();

	(void)s;
	assert_int_equal(v->control.intercept_exceptions,
			 BIT(1) | BIT(17) | BIT(18));
	free(v);
}

static void test_db_ac_reflected(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	assert_int_equal(fx_run(0x41, 0, 0), EXIT_RESUME); /* #DB */
	assert_int_equal(v->vmcb->control.event_inj,
			 1 | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_int_equal(v->vmcb->save.rip, RIP0); /* delivered, not skipped */
	assert_int_equal(fx_run(0x51, 0, 0),
			 EXIT_RESUME); /* #AC, error code 0 */
	assert_int_equal(v->vmcb->control.event_inj,
			 17 | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID |
				 EVENTINJ_EV);
	assert_int_equal(v->vmcb->save.rip, RIP0);
	assert_false(fx_g->stopping);
}

/* XSETBV is intercepted (VMRUN does not switch XCR0) and checked: #GP in
 * the guest for a bad value, ECX != 0 or CPL > 0; a good one reaches the
 * hardware XCR0 and the vCPU's copy, and the 3-byte insn is skipped. */
static void xsetbv_exit(struct vcpu *v, u32 ecx, u64 val)
{
	fx_exit(v, 0x8d, 0, 0);
	v->vmcb->save.cr4 |= CR4_OSXSAVE;
	v->gprs.rcx = ecx;
	v->vmcb->save.rax = val & 0xffffffff;
	v->gprs.rdx = val >> 32;
}

static void test_xsetbv_checked(void **s)
{
	struct vcpu *v = fx_v[0];
	struct features f = { 0 };
	struct vmcb *b = built();
	const u32 gp = 13 | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID |
		       EVENTINJ_EV;

	(void)s;
	assert_true(b->control.intercept2 & BIT(13));
	free(b);
	f.fxsr = f.xsave = true;
	f.xcr0_supported = 7;
	f.xsave_size = 832;
	fpu_boot(&f);
	v->xcr0 = 1;
	xsetbv_exit(v, 0, 3); /* a good value, but CR4.OSXSAVE is clear */
	v->vmcb->save.cr4 &= ~CR4_OSXSAVE;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj,
			 6 | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_int_equal(v->xcr0, 1);
	xsetbv_exit(v, 0, 0x5); /* AVX without SSE */
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, gp);
	assert_int_equal(v->vmcb->save.rip, RIP0);
	xsetbv_exit(v, 0, 1ULL << 32 | 7); /* a bit above 31 */
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, gp);
	xsetbv_exit(v, 1, 1); /* XCR1 */
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, gp);
	xsetbv_exit(v, 0, 3);
	v->vmcb->save.cpl = 3;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, gp);
	v->vmcb->save.cpl = 0;
	assert_int_equal(v->xcr0, 1);
	assert_int_equal(fake_trace_count("xsetbv"), 0);
	xsetbv_exit(v, 0, 7);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 3);
	assert_int_equal(v->xcr0, 7);
	assert_int_equal(fake_cpus[0].xcr0, 7);
	assert_false(fx_g->stopping);
}

/* One MCA bank holding an uncorrected error, MCG_STATUS.MCIP set. */
static void mca_error(void)
{
	g_mca_banks = 1;
	fake_msr_define(MSR_MCG_STATUS, MCG_STATUS_MCIP | MCG_STATUS_RIPV);
	fake_msr_define(MSR_MC_STATUS(0),
			MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN);
}

static void test_mc_stops_guest(void **s)
{
	(void)s;
	mca_error();
	assert_int_equal(fx_run(0x52, 0, 0), EXIT_LEAVE);
	assert_true(fx_g->stopping);
	assert_true(fx_g->failed);
	assert_non_null(
		strstr(fx_g->stop_reason, "machine check (#MC intercept)"));
	assert_int_equal(fx_v[0]->vmcb->control.event_inj, 0);
	/* the host's share, by hand: banks logged and MCIP cleared, or the
	 * next machine check on this CPU would be a shutdown */
	assert_int_equal(fake_msr_read(0, MSR_MCG_STATUS), 0);
	assert_int_equal(fake_msr_read(0, MSR_MC_STATUS(0)), 0);
	assert_true(fake_console_has(
		"mce: CPU 0 bank 0: STATUS 0xb000000000000000"));
	g_mca_banks = 0;
}

/* A guest with CR4.MCE clear (or no #MC handler) cannot take the #MC:
 * the CPU shuts it down, and MCIP says why. */
static void test_shutdown_after_mc(void **s)
{
	(void)s;
	mca_error();
	assert_int_equal(fx_run(VMEXIT_SHUTDOWN, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "machine check (SHUTDOWN"));
	assert_null(strstr(fx_g->stop_reason, "triple fault"));
	assert_int_equal(fake_msr_read(0, MSR_MCG_STATUS), 0);
	g_mca_banks = 0;
}

/* APM 15.7.2: an event whose delivery an exit interrupted is in
 * EXITINTINFO and must be injected again; only bit 31 says it is valid
 * (QEMU leaves other bits set with V=0). */
static void test_exitintinfo_reinjected(void **s)
{
	struct vcpu *v = fx_v[0];
	u64 pf = 14 | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID | EVENTINJ_EV |
		 (0x6ULL << 32);

	(void)s;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->control.exit_int_info = pf;
	vcpu_reinject_event(v);
	assert_int_equal(v->vmcb->control.event_inj, pf);
	/* V=0 with other bits set: nothing to inject. */
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->control.exit_int_info = 0x30e;
	vcpu_reinject_event(v);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	/* An external interrupt (type 0) keeps its vector, no error code. */
	fx_exit(v, VMEXIT_NPF, 0, 0);
	v->vmcb->control.exit_int_info = 0x80000030ULL;
	vcpu_reinject_event(v);
	assert_int_equal(v->vmcb->control.event_inj, 0x80000030ULL);
}

/* Linux's sme_enable() reads MSR_AMD64_SEV when 0x8000001F reports SEV:
 * hide the leaf (and everything from it up) and SVM. */
static void test_cpuid_sev_hidden(void **s)
{
	struct vcpu *v = fx_v[0];
	struct cpuid_regs r;

	(void)s;
	fake_cpuid_set(0x80000000, 0, 0x80000028, 1, 2, 3);
	fake_cpuid_set(0x8000001f, 0, 0x1007f, 0x16f, 509, 100);
	fake_cpuid_set(0x80000021, 0, BIT(8), 0, 0, 0);
	fake_cpuid_set(0x80000001, 0, 0, 0, BIT(2) | BIT(0), 0);
	fake_cpuid_set(0x8000000a, 0, 1, 16, 0, 0x1fff);
	cpuid_host_capture(&g_cpuid_host); /* as svm_init() at boot */
	exit_cpuid_leaf(v, 0x80000000, 0, &r);
	assert_true(r.eax < 0x8000001f);
	assert_true(r.eax >= 0x8000000a);
	exit_cpuid_leaf(v, 0x8000001f, 0, &r);
	assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
	exit_cpuid_leaf(v, 0x80000021, 0, &r);
	assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
	exit_cpuid_leaf(v, 0x80000001, 0, &r);
	assert_false(r.ecx & BIT(2));
	exit_cpuid_leaf(v, 0x8000000a, 0, &r);
	assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
	/* Through the exit too. */
	v->vmcb->save.rax = 0x8000001f;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rax, 0);
	assert_int_equal(v->gprs.rbx, 0);
}

/* IBPB: a guest PRED_CMD write reaches the hardware when enumerated. */
static void test_pred_cmd_written(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fake_msr_define(MSR_PRED_CMD, 0);
	g_features.ibpb = true;
	v->gprs.rcx = MSR_PRED_CMD;
	v->vmcb->save.rax = 1;
	v->gprs.rdx = 0;
	fake_trace_clear();
	assert_int_equal(fx_run(VMEXIT_MSR, 1, 0), EXIT_RESUME);
	assert_int_equal(fake_trace_count("wrmsr 0x49 0x1"), 1);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	/* Not enumerated: accepted, nothing to write. */
	g_features.ibpb = false;
	fake_trace_clear();
	assert_int_equal(fx_run(VMEXIT_MSR, 1, 0), EXIT_RESUME);
	assert_int_equal(fake_trace_count("wrmsr 0x49"), 0);
}

int main(void)
{
#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_cache_intercepts),	T(test_invd_wbinvd_skipped),
		T(test_exception_intercepts),	T(test_db_ac_reflected),
		T(test_mc_stops_guest),		T(test_xsetbv_checked),
		T(test_exitintinfo_reinjected), T(test_cpuid_sev_hidden),
		T(test_pred_cmd_written),	T(test_shutdown_after_mc),
	};
	return cmocka_run_group_tests_name("exits_hw", tests, NULL, NULL);
}
