// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits.c - the dispatcher and the exits with no suite of
 * their own, against a fake guest: SHUTDOWN, SVM instructions, single-step
 * traps, the interrupt shadow, HLT, PAUSE, NRIP, clean bits, codes without
 * a handler, INTR and NMI, the counters (IOIO: test_exits_io.c; NPF:
 * test_exits_npf.c; VMEXIT_INVALID: test_exits_invalid.c; CPUID:
 * test_exits_cpuid.c; MSRs: test_exits_msr.c). */
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
#include "tests/unit/exits_fixture.h"
#include "tests/unit/svm_fixture.h"

static void test_shutdown(void **s)
{
	(void)s;
	assert_int_equal(fx_run(VMEXIT_SHUTDOWN, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "triple fault"));
	assert_true(fx_g->failed);
}

static void test_svm_insns_ud(void **s)
{
	static const u64 codes[] = { VMEXIT_VMRUN,  VMEXIT_VMLOAD,
				     VMEXIT_VMSAVE, VMEXIT_STGI,
				     VMEXIT_CLGI,   VMEXIT_SKINIT,
				     VMEXIT_INVLPGA };

	(void)s;
	for (unsigned i = 0; i < ARRAY_SIZE(codes); i++) {
		assert_int_equal(fx_run(codes[i], 0, 0), EXIT_RESUME);
		assert_int_equal(fx_v[0]->vmcb->control.event_inj, UD_EVENT);
		assert_int_equal(fx_v[0]->vmcb->save.rip, RIP0);
	}
	assert_int_equal(fx_v[0]->stats.count[EK_SVM_INSN], ARRAY_SIZE(codes));
	assert_false(fx_g->stopping);
}

/* A guest single-stepping (RFLAGS.TF) through an instruction minhv carries
 * out gets the #DB trap the CPU would raise after it: RIP past the
 * instruction, DR6.BS set and B0-B3 clear, the DR clean bit dropped. A
 * faulting one gets only its fault; without TF nothing is added. */
static void test_single_step_trap(void **s)
{
	const u64 db = VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	struct vmcb *vm = fx_v[0]->vmcb;

	(void)s;
	vm->save.rflags = 0x302; /* TF, IF */
	vm->save.dr6 = 0xffff0ff1; /* B0 from an earlier breakpoint */
	vm->control.clean = VMCB_CLEAN_ALL;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(vm->save.rip, RIP0 + 2);
	assert_int_equal(vm->control.event_inj, db);
	assert_int_equal(vm->save.dr6, 0xffff4ff0);
	assert_int_equal(vm->control.clean & VMCB_CLEAN_DRX, 0);
	/* IN AL, 0x80: carried out by minhv, the trap follows */
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(0x80, 0, 1), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, db);
	/* RDMSR of an MSR nobody has: #GP, no trap (it did not complete) */
	fx_msr(0x12345678, false, 0);
	fx_expect_gp();
	/* TF clear: nothing added */
	vm->save.rflags = 0x202;
	vm->save.dr6 = 0xffff0ff0;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, 0);
	assert_int_equal(vm->save.dr6, 0xffff0ff0);
}

/* Every instruction minhv completes ends the interrupt shadow of a STI or
 * MOV SS before it (APM vol 2 15.21.5, AUDIT-HARDWARE.md B3: after
 * `sti; hlt` the woken vCPU must take its interrupt, not open a window);
 * one that faults, or a REP string I/O that goes on, keeps it. */
static void test_shadow_cleared(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vmcb_control *c = &v->vmcb->control;
	static char buf[5000];

	(void)s;
	c->int_shadow = INT_SHADOW;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(c->int_shadow, 0);
	c->int_shadow = INT_SHADOW;
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(0x80, 0, 1), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(c->int_shadow, 0);
	c->int_shadow = INT_SHADOW;
	assert_int_equal(fx_run(VMEXIT_PAUSE, 0, 0), EXIT_RESUME);
	assert_int_equal(c->int_shadow, 0);
	c->int_shadow = INT_SHADOW;
	fx_msr(MSR_EFER, false, 0);
	fx_expect_ok();
	assert_int_equal(c->int_shadow, 0);
	/* A faulting RDMSR: #GP, the instruction did not complete. */
	c->int_shadow = INT_SHADOW;
	fx_msr(0x12345678, false, 0);
	fx_expect_gp();
	assert_int_equal(c->int_shadow, INT_SHADOW);
	/* REP OUTSB: kept while RCX runs, cleared when it completes. */
	fx_long_mode_pt(v);
	memset(buf, 'x', sizeof(buf));
	fx_put(0x10000, buf, sizeof(buf));
	v->gprs.rsi = 0x10000;
	v->gprs.rcx = sizeof(buf);
	assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(9)), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0);
	assert_int_equal(c->int_shadow, INT_SHADOW);
	assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(9)), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(v->gprs.rcx, 0);
	assert_int_equal(c->int_shadow, 0);
	/* `sti; hlt`: the HLT completes (here with IF=0: the vCPU is done). */
	c->int_shadow = INT_SHADOW;
	v->vmcb->save.rflags = 0x2;
	assert_int_equal(fx_run(VMEXIT_HLT, 0, 0), EXIT_LEAVE);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 1);
	assert_int_equal(c->int_shadow, 0);
}

static void test_hlt_pause(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	assert_int_equal(fx_run(VMEXIT_PAUSE, 0, 0), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(v->stats.count[EK_PAUSE], 1);
	/* HLT with IF=0, the only live vCPU: it is done, the guest stops. */
	v->vmcb->save.rflags = 0x2;
	assert_int_equal(fx_run(VMEXIT_HLT, 0, 0), EXIT_LEAVE);
	assert_int_equal(v->state, VCPU_DONE);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 1);
	assert_true(fx_g->stopping);
	assert_false(fx_g->failed);
	assert_non_null(strstr(fx_g->stop_reason, "halted"));
}

static void test_hlt_if1_waits(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	/* Another vCPU keeps the guest alive; this one halts with IF=1. */
	fx_v[1]->state = VCPU_RUNNING;
	fx_g->live = 2;
	assert_int_equal(fx_run(VMEXIT_HLT, 0, 0), EXIT_LEAVE);
	assert_int_equal(v->state, VCPU_HALTED);
	assert_int_equal(fx_g->live, 1);
	assert_false(fx_g->stopping);
}

static void test_nrip_used(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	g_features.nrips = true;
	fx_exit(v, VMEXIT_PAUSE, 0, 0);
	v->vmcb->control.next_rip = RIP0 + 7;
	exit_dispatch(v);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 7);
}

static void test_clean_bits_marked(void **s)
{
	struct vmcb_control *c = &fx_v[0]->vmcb->control;

	(void)s;
	c->clean = VMCB_CLEAN_ALL;
	fx_msr(MSR_EFER, true, EFER_LME | EFER_LMA | EFER_NXE);
	fx_expect_ok();
	assert_int_equal(c->clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_CRX);
	c->clean = VMCB_CLEAN_ALL;
	fx_msr(MSR_PAT, true, 0x0606060606060606ULL);
	fx_expect_ok();
	assert_int_equal(c->clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_NP);
	/* A refused write changes nothing. */
	c->clean = VMCB_CLEAN_ALL;
	fx_msr(MSR_PAT, true, 0x0202020202020202ULL);
	fx_expect_gp();
	assert_int_equal(c->clean, VMCB_CLEAN_ALL);
	/* Fields no group covers: RAX/RIP (CPUID), FS base (VMLOAD state),
	 * EVENTINJ (#UD for an SVM instruction). */
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	fx_msr(MSR_FS_BASE, true, 0x1000);
	fx_expect_ok();
	fx_run(VMEXIT_VMRUN, 0, 0);
	assert_int_equal(fx_v[0]->vmcb->control.event_inj, UD_EVENT);
	assert_int_equal(c->clean, VMCB_CLEAN_ALL);
}

static void test_unexpected(void **s)
{
	(void)s;
	/* The inline dispatch calls a direct slot's handler untested: every
	 * slot has one, and a code without a row still looks up as "?". */
	for (u64 c = 0; c < EXIT_DIRECT; c++)
		assert_non_null(exit_rows[exit_row_of[c]].handler);
	assert_string_equal(exit_name(0x65), "?");
	assert_ptr_equal(exit_lookup(0x65), exit_lookup(0x1234));
	assert_ptr_not_equal(exit_lookup(VMEXIT_CPUID), exit_lookup(0x1234));
	assert_int_equal(fx_run(0x65, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "unexpected exit 0x65"));
	assert_int_equal(fx_v[0]->stats.count[EK_OTHER], 1);
	assert_int_equal(fx_v[0]->stats.exits, 1);
}

static void test_intr_nmi(void **s)
{
	(void)s;
	assert_int_equal(fx_run(VMEXIT_INTR, 0, 0), EXIT_RESUME);
	assert_int_equal(fx_run(VMEXIT_NMI, 0, 0), EXIT_RESUME);
	assert_int_equal(fx_v[0]->stats.count[EK_INTR], 1);
	assert_int_equal(fx_v[0]->stats.count[EK_NMI], 1);
	assert_int_equal(fx_v[0]->vmcb->save.rip, RIP0); /* not skipped */
	/* Nothing else to do in C: no host interrupt-flag games. */
	assert_int_equal(fake_trace_count("sti"), 0);
	assert_false(fx_g->stopping);
}

int main(void)
{
#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_single_step_trap), T(test_shadow_cleared),
		T(test_shutdown),	  T(test_svm_insns_ud),
		T(test_hlt_pause),	  T(test_hlt_if1_waits),
		T(test_nrip_used),	  T(test_clean_bits_marked),
		T(test_unexpected),	  T(test_intr_nmi),
	};
	return cmocka_run_group_tests_name("exits", tests, NULL, NULL);
}
