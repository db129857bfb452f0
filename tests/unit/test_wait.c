// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_wait.c - what every wait of a vCPU in the host shares
 * with the run loop (hv/guest/wait.c): the run-time limit stops a waiting
 * vCPU's guest and says where it waited; a guest whose every vCPU waits
 * for an event only another vCPU can send (HLT with interrupts off,
 * wait-for-SIPI, S3 without a wake-up) is stopped with that reason, unless
 * such an event is already on its way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/guest/guest.h"
#include "tests/unit/svm_fixture.h"

static int setup(void **state)
{
	fx_cmocka_setup(state);
	for (unsigned i = 0; i < FX_VCPUS; i++)
		fx_platform(fx_v[i]);
	return 0;
}

static void reason_has(const char *part)
{
	if (!strstr(fx_g->stop_reason, part))
		fail_msg("no '%s' in the stop reason '%s'", part,
			 fx_g->stop_reason);
}

/* guest_time_ms: a wait past it stops the guest, naming the wait. */
static void test_time_limit(void **state)
{
	(void)state;
	assert_true(guest_time_check(fx_v[1], 1000, "HLT")); /* no limit */
	fx_g->time_ms = 5;
	fx_g->deadline_tsc = 5000;
	assert_true(guest_time_check(fx_v[1], 4999, "HLT"));
	assert_false(fx_g->stopping);
	assert_false(guest_time_check(fx_v[1], 5000, "wait-for-SIPI"));
	assert_true(fx_g->stopping);
	assert_true(fx_g->failed);
	reason_has("vCPU 1: run-time limit of 5 ms reached at RIP");
	reason_has(" in wait-for-SIPI");
}

/* Every vCPU stuck, nothing pending: stopped by the last one, with what
 * each waits in. */
static void test_all_stuck_stops(void **state)
{
	(void)state;
	fx_v[3]->vmcb->save.rip = 0x5678;
	assert_true(vcpu_wait_stuck(fx_v[0], "HLT with interrupts off"));
	assert_true(vcpu_wait_stuck(fx_v[1], "wait-for-SIPI"));
	assert_true(vcpu_wait_stuck(fx_v[2], "wait-for-SIPI"));
	/* Counted once, however often a vCPU says so. */
	assert_true(vcpu_wait_stuck(fx_v[2], "wait-for-SIPI"));
	assert_int_equal(fx_g->stuck, 3);
	assert_false(fx_g->stopping);
	assert_false(vcpu_wait_stuck(fx_v[3], "ACPI S3 without a wake-up"));
	assert_true(fx_g->stopping);
	assert_true(fx_g->failed);
	reason_has("every vCPU waits for what no vCPU can send, the last "
		   "vCPU 3 in ACPI S3 without a wake-up at RIP 0x5678");
}

/* One vCPU out of its wait: the rest are not all of them. */
static void test_unstuck(void **state)
{
	(void)state;
	assert_true(vcpu_wait_stuck(fx_v[0], "HLT with interrupts off"));
	assert_true(vcpu_wait_stuck(fx_v[1], "wait-for-SIPI"));
	assert_true(vcpu_wait_stuck(fx_v[2], "wait-for-SIPI"));
	vcpu_wait_unstuck(fx_v[1]);
	vcpu_wait_unstuck(fx_v[1]); /* a second time changes nothing */
	assert_int_equal(fx_g->stuck, 2);
	assert_null(fx_v[1]->stuck_on);
	assert_true(vcpu_wait_stuck(fx_v[3], "wait-for-SIPI"));
	assert_false(fx_g->stopping);
	assert_false(vcpu_wait_stuck(fx_v[1], "HLT with interrupts off"));
	assert_true(fx_g->stopping);
}

/* An NMI, INIT or (while waiting for one) SIPI sent before its sender got
 * stuck will wake its target: no stop. A fixed interrupt does not wake a
 * HLT with interrupts off. */
static void test_pending_event_keeps_it(void **state)
{
	static const u32 modes[] = { APIC_DM_NMI, APIC_DM_INIT, APIC_DM_SIPI };

	(void)state;
	for (unsigned m = 0; m < 3; m++) {
		fx_g->stuck = 0;
		for (unsigned i = 0; i < FX_VCPUS; i++) {
			fx_v[i]->stuck_on = NULL;
			fx_platform(fx_v[i]);
		}
		fx_v[2]->lapic.wait_sipi = true;
		vlapic_deliver(&fx_v[2]->lapic, modes[m], 0x10, false);
		for (unsigned i = 0; i < FX_VCPUS; i++)
			assert_true(vcpu_wait_stuck(fx_v[i], "HLT"));
		assert_false(fx_g->stopping);
	}
	fx_g->stuck = 0;
	for (unsigned i = 0; i < FX_VCPUS; i++) {
		fx_v[i]->stuck_on = NULL;
		fx_platform(fx_v[i]);
	}
	fx_v[2]->lapic.svr = APIC_SVR_ENABLE | 0xff;
	vlapic_deliver(&fx_v[2]->lapic, APIC_DM_FIXED, 0x40, false);
	for (unsigned i = 0; i + 1 < FX_VCPUS; i++)
		assert_true(
			vcpu_wait_stuck(fx_v[i], "HLT with interrupts off"));
	assert_false(vcpu_wait_stuck(fx_v[3], "HLT with interrupts off"));
	assert_true(fx_g->stopping);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, fx_cmocka_teardown)
		T(test_time_limit),
		T(test_all_stuck_stops),
		T(test_unstuck),
		T(test_pending_event_keeps_it),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
