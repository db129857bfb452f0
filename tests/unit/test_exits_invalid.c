// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits_invalid.c - VMEXIT_INVALID against a fake guest:
 * both widths of the code, the VMRUN failure's diagnosis, and QEMU's at a
 * guest MOV to CR (#GP to the guest, once per RIP, in 64- and 16-bit
 * code). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/svm/exit.h"
#include "tests/doubles/fake_console.h"
#include "tests/unit/exits_fixture.h"
#include "tests/unit/svm_fixture.h"

static void test_invalid_both_widths(void **s)
{
	(void)s;
	fx_v[0]->vmcb->save.efer = EFER_LME | EFER_LMA; /* SVME missing */
	assert_int_equal(fx_run(0xffffffffULL, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "VMRUN failed"));
	assert_non_null(strstr(fx_g->stop_reason, "EFER.SVME is clear"));
	assert_true(fake_console_has("VMCB "));
	fx_teardown();
	fx_setup();
	assert_int_equal(fx_run(~0ULL, 0, 0), EXIT_LEAVE);
	assert_non_null(
		strstr(fx_g->stop_reason, "VMEXIT_INVALID 0xffffffffffffffff"));
}

/* QEMU overwrites the save area with host state when VMRUN fails: the
 * diagnosis uses the CR0 the run loop gave VMRUN. */
static void test_invalid_cr0_nw(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	v->vmrun_cr0 = v->vmcb->save.cr0 | BIT(29); /* NW, CD clear */
	assert_int_equal(fx_run(0xffffffffULL, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "CR0.NW set without CR0.CD"));
}

/* QEMU TCG's VMEXIT_INVALID for a guest MOV to CR4 with a reserved bit
 * (or CR3 above MAXPHYADDR) in mid-guest: the guest gets #GP(0) at the
 * MOV, as the architecture says; anything else at RIP still stops it. */
static void test_invalid_mov_cr_gp(void **s)
{
	const u64 rip = 0x8000;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	g_features.qemu = true; /* fw_cfg said so at boot */
	fx_long_mode_pt(v);
	vm->control.asid = 1; /* a VMCB that passes vmcb_check() */
	vmcb_set_intercept(vm, INTERCEPT_VMRUN);
	fx_put(rip, "\x0f\x22\xe7", 3); /* mov %rdi,%cr4 */
	v->gprs.rdi = 0x20 | BIT(28);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_int_equal(vm->control.event_inj, GP_EVENT);
	assert_int_equal(vm->save.rip, rip);
	assert_int_equal(vm->save.cr4, 0x20);
	assert_int_equal(v->stats.mov_cr_gp, 1);
	/* mov %r8,%cr3, after the guest ran on (another exit) */
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	vm->control.event_inj = 0;
	fx_put(rip, "\x41\x0f\x22\xd8", 4);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, GP_EVENT);
	assert_int_equal(v->stats.mov_cr_gp, 2);
	/* A save area that breaks a rule is a real VMRUN failure. */
	vm->control.event_inj = 0;
	vm->save.cr4 = 0; /* long mode without PAE */
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "without CR4.PAE"));
	assert_int_equal(v->stats.mov_cr_gp, 2);
}

/* D3: the QEMU workaround is QEMU's only (on hardware a VMRUN failure
 * vmcb_check() misses, with RIP at a MOV to CR4, would turn into a #GP
 * that fails again at once, forever), and never twice in a row at one
 * RIP: the first #GP was then never delivered. */
static void test_invalid_mov_cr_gp_guarded(void **s)
{
	const u64 rip = 0x8000;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	fx_long_mode_pt(v);
	vm->control.asid = 1;
	vmcb_set_intercept(vm, INTERCEPT_VMRUN);
	fx_put(rip, "\x0f\x22\xe7", 3); /* mov %rdi,%cr4 */
	/* Not QEMU: the VMRUN failure it is. */
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "VMRUN failed"));
	assert_int_equal(v->stats.mov_cr_gp, 0);
	/* QEMU: once; after other exits (the guest ran) again. */
	fx_g->stopping = false;
	fx_g->stop_reason[0] = 0;
	g_features.qemu = true;
	for (int i = 0; i < 2; i++) {
		fx_exit(v, 0xffffffffULL, 0, 0);
		vm->save.rip = rip;
		assert_int_equal(exit_dispatch(v), EXIT_RESUME);
		assert_int_equal(vm->control.event_inj, GP_EVENT);
		assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	}
	assert_int_equal(v->stats.mov_cr_gp, 2);
	/* The same RIP right after the answer: its #GP was never delivered,
	 * VMRUN failed again. Stop instead of looping. */
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_true(fx_g->stopping);
	assert_int_equal(v->stats.mov_cr_gp, 3);
}

/* The same from 16-bit code: decoded at CS.base + IP, and in real mode
 * the #GP carries no error code (VMRUN would refuse one). */
static void test_invalid_mov_cr4_16bit(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	g_features.qemu = true; /* fw_cfg said so at boot */
	vm->control.asid = 1;
	vmcb_set_intercept(vm, INTERCEPT_VMRUN);
	/* 16-bit protected mode: CS.D = 0, paging off */
	fx_put(0x8000, "\x0f\x22\xe0", 3); /* mov %eax,%cr4 */
	vm->save.rax = BIT(28);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.cr0 = CR0_PE | CR0_ET;
	vm->save.efer = EFER_SVME;
	vm->save.cs.attrib = 0x9b; /* present code, D = 0 */
	vm->save.cs.base = 0x7000;
	vm->save.rip = 0x1000;
	v->vmrun_cr0 = vm->save.cr0;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_int_equal(vm->control.event_inj, GP_EVENT);
	assert_int_equal(vm->save.rip, 0x1000);
	/* real mode, after the guest ran on (another exit) */
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	vm->control.event_inj = 0;
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.cr0 = CR0_ET;
	vm->save.efer = EFER_SVME;
	vm->save.cs.attrib = 0x9b;
	vm->save.cs.base = 0x7000;
	vm->save.rip = 0x1000;
	v->vmrun_cr0 = vm->save.cr0;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_int_equal(vm->control.event_inj,
			 VEC_GP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_int_equal(v->stats.mov_cr_gp, 2);
}

/* MOV to CR0 (QEMU never answers it with VMEXIT_INVALID) or any other
 * instruction at RIP: the guest stops with the diagnosis. */
static void test_invalid_other_insn(void **s)
{
	const u64 rip = 0x8000;
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_long_mode_pt(v);
	v->vmcb->control.asid = 1;
	vmcb_set_intercept(v->vmcb, INTERCEPT_VMRUN);
	fx_put(rip, "\x0f\x22\xc7", 3); /* mov %rdi,%cr0 */
	fx_exit(v, 0xffffffffULL, 0, 0);
	v->vmcb->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(v->stats.mov_cr_gp, 0);
	assert_non_null(strstr(fx_g->stop_reason, "no consistency rule"));
}

int main(void)
{
#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_invalid_cr0_nw),
		T(test_invalid_mov_cr_gp),
		T(test_invalid_mov_cr_gp_guarded),
		T(test_invalid_mov_cr4_16bit),
		T(test_invalid_other_insn),
		T(test_invalid_both_widths),
	};
	return cmocka_run_group_tests_name("exits_invalid", tests, NULL, NULL);
}
