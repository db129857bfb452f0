// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_entry_timer.c - a foreign guest's vLAPIC timer
 * through the run loop over the world-switch double: polled at entry and
 * the host timer armed for it, in a HLT's wait (woken by it, by an
 * interrupt, or by the run-time limit's tick), a TSC deadline already
 * passed at its write, again at each new turn of the vCPU
 * (hv/svm/sched_cpu.c), and the watchdog's tick that self IPIs take.
 * The V_IRQ offers themselves: test_vlapic_entry.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apicdef.h"
#include "arch/msr.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/run/run.h"
#include "hv/svm/sched_cpu.h"
#include "hv/svm/vlapic_vcpu.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_vmrun.h"
#include "tests/unit/run_fixture.h"
#include "tests/unit/vlapic_entry_fixture.h"

#define TIMER_VEC 0x50

#define MS (RF_TSC_KHZ)

/* The guest's x2APIC SELF_IPI of VEC (WRMSR 0x83F) as its exit. */
static void wrmsr_self_ipi(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)arg;
	r->rcx = X2APIC_MSR(APIC_REG_SELF_IPI);
	r->rdx = 0;
	vm->save.rax = VEC;
}

/* A self IPI needs no host interrupt: every VCPU_SELF_TICK-th takes the
 * watchdog's tick itself, which starts the host timer again (a lost
 * interrupt of QEMU's would otherwise leave a self-IPI storm with no
 * tick at all). No limit is on here: only that tick starts it. */
static void test_self_ipi_takes_tick(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_MSR, .info1 = 1, .guest = wrmsr_self_ipi },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	ve_x2apic_on();
	ve_v->self_events = VCPU_SELF_TICK - 1;
	ve_run_passed(script, ARRAY_SIZE(script), 2);
	assert_true(ve_v->self_events >= VCPU_SELF_TICK);
	assert_int_equal(ve_last_init, WD_TICKS); /* the tick's start */
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
}

/* The guest arms its one-shot timer (during an exit, as its MMIO write
 * would): the next entry arms the host timer for it and injects nothing;
 * once the time has passed, the host timer's tick exits and the entry
 * after it injects the timer's vector. */
static void arm_guest_timer(void)
{
	vlapic_sync(ve_v);
	assert_int_equal(
		vlapic_reg_write(&ve_v->lapic, APIC_REG_TIMER_INIT, 1000), 0);
}

/* The guest's LAPIC timer in one-shot mode, divide by 1, TIMER_VEC. */
static void oneshot_timer_mode(void)
{
	assert_int_equal(vlapic_reg_write(&ve_v->lapic, APIC_REG_TIMER_DIV,
					  APIC_TIMER_DIV_1),
			 0);
	assert_int_equal(vlapic_reg_write(&ve_v->lapic, APIC_REG_LVT_TIMER,
					  TIMER_VEC),
			 0);
}

static void ten_ms_later(void)
{
	ve_now += 10 * MS;
}

static void test_timer_expiry_at_entry(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR,
		  .guest = ve_set_if,
		  .then = arm_guest_timer },
		{ .code = VMEXIT_INTR, .tick = true, .then = ten_ms_later },
		RF_OUTB(0xf4, 0),
	};
	(void)s;
	oneshot_timer_mode();
	ve_run_passed(script, ARRAY_SIZE(script), 3);
	/* No watchdog here (watchdog_ms=0): each start was for the guest's
	 * timer, at the entry after it was armed and after the tick. */
	assert_int_equal(ve_arms, 2);
	assert_int_equal(ve_offer_of(1), 0);
	assert_int_equal(ve_offer_of(2), OFFER(TIMER_VEC));
}

/* `sti; hlt` with the guest's one-shot timer armed: the HLT waits in the
 * host with the host timer started for the guest timer (count_arms()
 * checks the order), wakes when it has expired, and the next entry
 * offers the timer's vector. */
static void test_sti_hlt_timer_wakes(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_HLT,
		  .guest = ve_sti_hlt,
		  .then = arm_guest_timer },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	oneshot_timer_mode();
	ve_wait_step = MS;
	ve_run_passed(script, ARRAY_SIZE(script), 2);
	assert_true(ve_arms >= 1);
	assert_int_equal(ve_entry(1)->vmcb.save.rip, RF_ENTRY + 1);
	assert_int_equal(ve_offer_of(1), OFFER(TIMER_VEC));
}

/* A wait that the watchdog's tick came into (the tick flag set) and an
 * interrupt ended, with the guest's timer still to come: back in the run
 * loop the tick's start replaces the wait's start for the guest timer, so
 * the next entry starts the guest's again, and the last start is not the
 * 10 ms tick (a stale host_at kept it, delaying the guest timer). */
static void post_during_wait(void)
{
	ve_post_at_start = true;
}

static void test_tick_after_wait_restarts_guest_timer(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR,
		  .guest = ve_set_if,
		  .then = arm_guest_timer },
		{ .code = VMEXIT_HLT, .tick = true, .then = post_during_wait },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	oneshot_timer_mode();
	ve_run_passed(script, ARRAY_SIZE(script), 3);
	assert_false(ve_post_at_start); /* the wait started the host timer */
	assert_int_equal(ve_offer_of(2), OFFER(VEC));
	/* entry 1's start, the wait's, the tick's, entry 2's */
	assert_int_equal(ve_arms, 4);
	assert_true(ve_last_init != WD_TICKS);
}

/* guest_time_ms in a wait (issue 24, 2): `sti; hlt` with nothing armed
 * waits up to 55 ms in the host, but with a limit on, the wait starts the
 * host timer for the next tick and runs the run loop's checks when it
 * fires: the guest stops at the first tick past its 5 ms, in the HLT, and
 * never enters again. */
static void test_hlt_wait_honours_time_limit(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_HLT, .guest = ve_set_if },
	};

	(void)s;
	ve_g->time_ms = 5;
	ve_wait_step = 10 * MS; /* the tick's 10 ms pass */
	ve_tick_at_start = true;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(ve_g);
	assert_int_equal(fake_vmrun_count(), 1);
	assert_true(ve_g->stopping);
	assert_true(ve_g->failed);
	if (!strstr(ve_g->stop_reason, "run-time limit of 5 ms reached") ||
	    !strstr(ve_g->stop_reason, "in HLT"))
		fail_msg("stop reason '%s'", ve_g->stop_reason);
	/* the watchdog's first tick, the wait's */
	assert_int_equal(ve_arms, 2);
}

/* WRMSR IA32_TSC_DEADLINE = 1, a guest TSC long past it; IF = arg. */
static void wrmsr_past_deadline(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	r->rcx = MSR_TSC_DEADLINE;
	r->rdx = 0;
	vm->save.rax = 1;
	if (arg)
		vm->save.rflags |= RFLAGS_IF;
	else
		vm->save.rflags &= ~RFLAGS_IF;
}

/* TSC-deadline mode, a deadline already passed (kvm-unit-tests'
 * tscdeadline): with IF=1 the write itself offers the timer's vector
 * (V_IRQ) for the entry after the WRMSR, IRR untouched, and the CPU takes
 * it; with IF=0 it goes the general way (the poll at entry, IRR, an
 * offer the CPU does not take, back in IRR at the exit). */
static void passed_deadline(bool if_on)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_MSR,
		  .info1 = 1, /* a write */
		  .guest = wrmsr_past_deadline,
		  .arg = if_on },
		RF_OUTB(0xf4, 0),
	};
	u64 rip;

	assert_int_equal(vlapic_reg_write(&ve_v->lapic, APIC_REG_LVT_TIMER,
					  (APIC_TIMER_TSC_DEADLINE << 17) |
						  TIMER_VEC),
			 0);
	ve_now = 1000;
	ve_run_passed(script, ARRAY_SIZE(script), 2);
	rip = ve_entry(0)->vmcb.save.rip;
	assert_int_equal(ve_entry(1)->vmcb.save.rip, rip + 2); /* WRMSR done */
	assert_int_equal(vlapic_tsc_deadline_read(&ve_v->lapic), 0); /* fired */
	assert_int_equal(ve_v->lapic.fired, 1);
	assert_int_equal(ve_entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(ve_offer_of(1), OFFER(TIMER_VEC));
	assert_int_equal(fake_virq_taken, if_on ? 1 : 0);
	assert_int_equal(ve_in_service(TIMER_VEC), if_on);
	assert_int_equal(vlapic_irr_any(&ve_v->lapic), !if_on);
}

static void test_passed_deadline_injected_at_write(void **s)
{
	(void)s;
	passed_deadline(true);
}

static void test_passed_deadline_if_off_waits(void **s)
{
	(void)s;
	passed_deadline(false);
}

/* A later turn of a vCPU (hv/svm/sched_cpu.c: preempted, blocked, or
 * moved to another CPU) whose guest timer is armed: its entry path runs
 * only when asked (vlapic_entry_maybe()), so the turn asks, and the first
 * entry starts the host timer for the guest's timer again. Without the ask
 * nothing starts it (no watchdog here): the guest's timer is lost. */
static void test_new_turn_restarts_guest_timer(void **s)
{
	const struct fake_exit script[] = {
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	oneshot_timer_mode();
	vlapic_guest_start(ve_g);
	arm_guest_timer();
	/* The turn before consumed every ask (and another CPU's timer held
	 * its start): only this turn can ask again. */
	__atomic_and_fetch(&ve_v->lapic.pending, ~VLAPIC_PEND_LOCAL,
			   __ATOMIC_RELAXED);
	ve_v->lapic.c.host_at = 5 * MS;
	ve_v->se.last_cpu = 1;
	ve_v->state = VCPU_RUNNING; /* as its queue marks it for a turn */
	fake_vmrun_script(script, ARRAY_SIZE(script));
	assert_int_equal(vcpu_run(ve_v), SCHED_EXIT);
	ve_check_passed(1);
	assert_int_equal(ve_arms, 1);
	assert_true(ve_last_init != WD_TICKS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_self_ipi_takes_tick,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(test_timer_expiry_at_entry,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(test_sti_hlt_timer_wakes,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(
			test_tick_after_wait_restarts_guest_timer, ve_setup,
			ve_teardown),
		cmocka_unit_test_setup_teardown(test_hlt_wait_honours_time_limit,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(
			test_passed_deadline_injected_at_write, ve_setup,
			ve_teardown),
		cmocka_unit_test_setup_teardown(
			test_passed_deadline_if_off_waits, ve_setup,
			ve_teardown),
		cmocka_unit_test_setup_teardown(
			test_new_turn_restarts_guest_timer, ve_setup,
			ve_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
