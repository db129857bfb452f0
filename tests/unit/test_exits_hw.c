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

/* H7: MONITOR/MWAIT intercepted (MONITORX/MWAITX exit through the same
 * bits, APM vol 3), answered with #UD as the hidden CPUID bits say. */
static void test_monitor_mwait_ud(void **s)
{
	struct vmcb *b = built();
	struct vcpu *v = fx_v[0];

	(void)s;
	assert_true(b->control.intercept2 & BIT(10)); /* MONITOR(X) */
	assert_true(b->control.intercept2 & BIT(11)); /* MWAIT(X) */
	assert_false(b->control.intercept2 & BIT(12)); /* MWAIT_COND */
	free(b);
	assert_int_equal(fx_run(0x8a, 0, 0), EXIT_RESUME); /* MONITOR */
	assert_int_equal(v->vmcb->control.event_inj,
			 VEC_UD | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_int_equal(v->vmcb->save.rip, RIP0); /* a fault */
	assert_int_equal(fx_run(0x8b, 0, 0), EXIT_RESUME); /* MWAIT */
	assert_int_equal(v->vmcb->control.event_inj,
			 VEC_UD | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_int_equal(v->vmcb->save.rip, RIP0);
	assert_false(fx_g->stopping);
	assert_string_equal(exit_name(0x8b), "MWAIT");
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

/* B6: a general-detect #DB (DR6.BD: a MOV DR under DR7.GD) reflected
 * with GD cleared, as the processor's delivery clears it (SDM vol 3B
 * 18.2.4) and KVM's injection does: else the guest's handler faults again
 * on its MOV from DR6, forever. DR7 is cached: DRX marked dirty. */
static void test_db_gd_cleared(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	vm->save.dr6 = DR6_ACTIVE_LOW | DR6_BD;
	vm->save.dr7 = DR7_FIXED | DR7_GD | 0x1; /* L0 stays */
	vm->control.clean = VMCB_CLEAN_ALL;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj,
			 VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_int_equal(vm->save.dr7, DR7_FIXED | 0x1);
	assert_int_equal(vm->save.dr6, DR6_ACTIVE_LOW | DR6_BD); /* kept */
	assert_int_equal(vm->control.clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_DRX);
	/* GD clear: DR7 untouched, nothing to reload. */
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	vm->save.dr6 = DR6_ACTIVE_LOW | 0x1;
	vm->control.clean = VMCB_CLEAN_ALL;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->save.dr7, DR7_FIXED | 0x1);
	assert_int_equal(vm->control.clean, VMCB_CLEAN_ALL);
	/* minhv's own single-step trap after a completed instruction clears
	 * it as well. */
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	vm->save.rflags |= RFLAGS_TF;
	vm->save.dr7 = DR7_FIXED | DR7_GD;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->save.dr7, DR7_FIXED);
	assert_int_equal(vm->control.event_inj,
			 VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
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

/* B5(i): a software interrupt whose delivery an exit interrupted (INTn is
 * type 4; INT3/INTO come as exceptions 3/4) is re-injected with its return
 * address: NEXT_RIP with NRIP (KVM's svm_update_soft_interrupt_rip()),
 * else RIP moved past the instruction. RIP is at the instruction, whose
 * bytes give the length; bytes that are not it: not re-injected, the
 * guest runs the instruction again (Xen's rule). */
static void soft(struct vcpu *v, u64 rip, const char *bytes, unsigned n,
		 u64 info)
{
	const struct vmcb_save *sv = &v->vmcb->save;
	bool lm = sv->efer & EFER_LMA;

	fx_exit(v, VMEXIT_NPF, 0, 0);
	/* Paging is identity (or off): linear = CS.base + RIP. */
	fx_put(lm ? rip : sv->cs.base + rip, bytes, n);
	v->vmcb->save.rip = rip;
	v->vmcb->control.next_rip = 0xdead; /* what an earlier exit left */
	v->vmcb->control.exit_int_info = info;
	vcpu_reinject_event(v);
}

static void test_exitintinfo_soft_next_rip(void **s)
{
	const u64 intn = 0x80 | EVENTINJ_TYPE_SOFT | EVENTINJ_VALID;
	const u64 int3 = VEC_BP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	const u64 into = VEC_OF | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	fx_long_mode_pt(v);
	g_features.nrips = true;
	soft(v, 0x8000, "\xcd\x80", 2, intn); /* int $0x80 */
	assert_int_equal(vm->control.event_inj, intn);
	assert_int_equal(vm->control.next_rip, 0x8002);
	assert_int_equal(vm->save.rip, 0x8000);
	soft(v, 0x8000, "\x66\x48\xcd\x80", 4, intn); /* prefixes count */
	assert_int_equal(vm->control.next_rip, 0x8004);
	soft(v, 0x8010, "\xcc", 1, int3); /* int3 */
	assert_int_equal(vm->control.event_inj, int3);
	assert_int_equal(vm->control.next_rip, 0x8011);
	soft(v, 0x8010, "\xcd\x03", 2, /* int $3: INTn, not INT3 */
	     3 | EVENTINJ_TYPE_SOFT | EVENTINJ_VALID);
	assert_int_equal(vm->control.next_rip, 0x8012);
	/* Without NRIP the CPU pushes RIP: move it past the instruction. */
	g_features.nrips = false;
	soft(v, 0x8020, "\xcd\x80", 2, intn);
	assert_int_equal(vm->control.event_inj, intn);
	assert_int_equal(vm->save.rip, 0x8022);
	assert_int_equal(vm->control.next_rip, 0xdead);
	/* The bytes are no longer that instruction: not re-injected, RIP
	 * stays, the guest executes what is there. */
	g_features.nrips = true;
	soft(v, 0x8030, "\x90\x90", 2, intn);
	assert_int_equal(vm->control.event_inj, 0);
	assert_int_equal(vm->save.rip, 0x8030);
	soft(v, 0x8030, "\xcd\x81", 2, intn); /* another vector */
	assert_int_equal(vm->control.event_inj, 0);
	soft(v, 0x8030, "\xcc", 1, into); /* INTO is CE */
	assert_int_equal(vm->control.event_inj, 0);
	/* 32-bit code, paging off: CS.base counts. */
	vm->save.efer &= ~(EFER_LMA | EFER_LME);
	vm->save.cr0 = CR0_PE | CR0_ET;
	vm->save.cs.attrib = 0xc9b; /* D=1 */
	vm->save.cs.base = 0x1000;
	soft(v, 0x7000, "\xce", 1, into); /* at linear 0x8000 */
	assert_int_equal(vm->control.event_inj, into);
	assert_int_equal(vm->control.next_rip, 0x7001);
	/* Real mode: CS.base + IP, 16-bit IP. */
	vm->save.cr0 = CR0_ET;
	vm->save.cs.attrib = 0x9b;
	vm->save.cs.base = 0x10000;
	soft(v, 0xfffe, "\xcd\x10", 2,
	     0x10 | EVENTINJ_TYPE_SOFT | EVENTINJ_VALID);
	assert_int_equal(vm->control.next_rip, 0);
	/* Hardware events keep NEXT_RIP as it was. */
	soft(v, 0x10, "\x90", 1, 0x30 | EVENTINJ_VALID);
	assert_int_equal(vm->control.event_inj, 0x30 | EVENTINJ_VALID);
	assert_int_equal(vm->control.next_rip, 0xdead);
}

/* B5(ii): a handler's exception does not replace the re-injected event
 * (an interrupt already moved IRR -> ISR would be lost): it is queued,
 * the entry that delivers the first one makes the guest exit at once (a
 * self IPI), and the next entry injects it. */
static void test_exitintinfo_not_overwritten(void **s)
{
	const u64 irq = 0x30 | EVENTINJ_TYPE_INTR | EVENTINJ_VALID;
	const u64 db = VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	/* A #DB intercepted while an interrupt was being delivered. */
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	vm->control.exit_int_info = irq;
	vcpu_reinject_event(v); /* as the run loop, before the handler */
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, irq);
	assert_int_equal(v->queued_event, db);
	/* Entry: the interrupt goes first, the guest exits right after. */
	vcpu_inject_queued(v);
	assert_int_equal(vm->control.event_inj, irq);
	assert_int_equal(fx_self_kicks, 1);
	/* That exit (INTR, the interrupt delivered): the #DB goes now. */
	fx_exit(v, VMEXIT_INTR, 0, 0);
	vm->control.exit_int_info = 0;
	vcpu_reinject_event(v);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	vcpu_inject_queued(v);
	assert_int_equal(vm->control.event_inj, db);
	assert_int_equal(v->queued_event, 0);
	assert_int_equal(fx_self_kicks, 1);
	/* Without EXITINTINFO a handler's exception goes straight in. */
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	vm->control.exit_int_info = 0;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, db);
	assert_int_equal(v->queued_event, 0);
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
		T(test_cache_intercepts),
		T(test_invd_wbinvd_skipped),
		T(test_monitor_mwait_ud),
		T(test_exception_intercepts),
		T(test_db_ac_reflected),
		T(test_db_gd_cleared),
		T(test_mc_stops_guest),
		T(test_xsetbv_checked),
		T(test_exitintinfo_reinjected),
		T(test_cpuid_sev_hidden),
		T(test_exitintinfo_soft_next_rip),
		T(test_exitintinfo_not_overwritten),
		T(test_pred_cmd_written),
		T(test_shutdown_after_mc),
	};
	return cmocka_run_group_tests_name("exits_hw", tests, NULL, NULL);
}
