// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_entry.c - a foreign guest's vLAPIC on the way into
 * the guest, through the run loop (hv/svm/vcpu_run.c ->
 * vlapic_inject_pending(), hv/svm/vlapic_inject.c) over the world-switch
 * double: an interrupt posted while the vCPU was out is in EVENTINJ at the
 * next entry when the guest can take it; when it cannot (IF=0), that entry
 * opens a window (V_IRQ and the VINTR intercept) instead, and the entry
 * after the window's exit injects it; the guest's timer is polled at
 * entry and the host timer armed for it, again at each new turn of the
 * vCPU (hv/svm/sched_cpu.c). test_vlapic_inject.c checks the
 * same function called by hand, event by event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apicdef.h"
#include "arch/msr.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/run/run.h"
#include "hv/svm/sched_cpu.h"
#include "hv/svm/vlapic_vcpu.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_trap.h"
#include "tests/doubles/fake_vmrun.h"
#include "tests/unit/run_fixture.h"

#define VEC 0x41 /* a fixed interrupt from another CPU */
#define TIMER_VEC 0x50
#define EVENT(vec) ((vec) | EVENTINJ_TYPE_INTR | EVENTINJ_VALID)
#define MS (RF_TSC_KHZ)

static struct guest *g;
static struct vcpu *v;
static u64 now;
static unsigned arms; /* host LAPIC timer starts */
static u64 wait_step; /* TSC that passes at each start (count_arms()) */
static u64 last_init; /* the last start's count */
static bool post_at_start; /* post VEC at the next start */
static bool tick_at_start; /* each start's timer fires (after it) */

static u64 clock_now(void)
{
	return now;
}

/* The watchdog's tick: FALLBACK_TICKS, as nothing calibrates here. */
#define WD_TICKS 10000000u

/* Every start of the host timer for the guest's: host_at is stored first
 * and interrupts are off, so a short count that fires at once clears the
 * host_at of this start, never a stale one (a stale host_at made the next
 * wait park with no timer running: a lost wake-up of sti; hlt). */
static void count_arms(u32 msr, u64 val)
{
	if (msr != X2APIC_MSR(APIC_REG_TIMER_INIT) || !val)
		return;
	arms++;
	last_init = val;
	if (val == WD_TICKS)
		return; /* the watchdog's tick */
	assert_false(fake_cpus[fake_cpu_current()].irq_enabled);
	assert_true(v->lapic.c.host_at != 0);
	now += wait_step; /* time passes while the host waits */
	if (tick_at_start) /* its interrupt, once the starter's IF is on */
		fake_idt[VEC_TIMER](NULL);
	if (post_at_start) { /* another CPU's interrupt ends the wait */
		post_at_start = false;
		vlapic_deliver(&v->lapic, APIC_DM_FIXED, VEC, false);
	}
}

/* A multiboot guest whose vCPU 0 has its vLAPIC software-enabled. */
static int setup(void **s)
{
	struct guest_params p;

	(void)s;
	rf_setup(1, 0);
	now = 0;
	arms = 0;
	wait_step = 0;
	last_init = 0;
	post_at_start = false;
	tick_at_start = false;
	fake_rdtsc_hook = clock_now;
	p = rf_params(GUEST_MULTIBOOT, 1);
	assert_int_equal(guest_create(&p, &g), 0);
	v = g->vcpus[0];
	assert_int_equal(vlapic_reg_write(&v->lapic, APIC_REG_SVR,
					  APIC_SVR_ENABLE | 0xff),
			 0);
	fake_wrmsr_hook = count_arms;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	guest_destroy(g);
	rf_teardown();
	return 0;
}

static void set_if(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags |= RFLAGS_IF;
}

static void clear_if(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags &= ~RFLAGS_IF;
}

/* Another CPU sends VEC to vCPU 0 while it is out of the guest. */
static void post(void)
{
	vlapic_deliver(&v->lapic, APIC_DM_FIXED, VEC, false);
}

static const struct fake_entry *entry(unsigned i)
{
	return fake_vmrun_entry(i);
}

/* isa-debug-exit, value 0: the guest passed and stops. */
static void check_passed(unsigned vmruns)
{
	assert_int_equal(fake_vmrun_count(), vmruns);
	assert_true(g->stopping);
	assert_false(g->failed);
	assert_int_equal(g->exit_status, 1);
	assert_false(v->in_loop);
}

static bool in_service(u8 vec)
{
	u64 isr;

	assert_int_equal(vlapic_reg_read(&v->lapic,
					 APIC_REG_ISR + (vec / 32) * 0x10,
					 &isr),
			 0);
	return isr & (1u << (vec % 32));
}

/* IF=1: the interrupt posted during an exit is injected at the next
 * entry, from the IRR into service. */
static void test_pending_injected_at_entry(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = set_if, .then = post },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(2);
	assert_int_equal(entry(0)->vmcb.control.event_inj, 0);
	assert_int_equal(entry(1)->vmcb.control.event_inj, EVENT(VEC));
	assert_false(entry(1)->vmcb.control.v_intr & V_IRQ);
	assert_false(vlapic_irr_any(&v->lapic));
	assert_true(in_service(VEC));
}

/* IF=0: no injection; the entry opens the interrupt window (V_IRQ, the
 * VINTR intercept). The guest sets IF, the window exits (VINTR), and the
 * entry after it injects the interrupt with the window closed. */
static void test_blocked_opens_window(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = clear_if, .then = post },
		{ .code = VMEXIT_VINTR, .guest = set_if },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
	assert_true(entry(1)->vmcb.control.v_intr & V_IRQ);
	assert_true(vmcb_has_intercept(&entry(1)->vmcb, INTERCEPT_VINTR));
	assert_int_equal(entry(2)->vmcb.control.event_inj, EVENT(VEC));
	assert_false(entry(2)->vmcb.control.v_intr & V_IRQ);
	assert_false(vmcb_has_intercept(&entry(2)->vmcb, INTERCEPT_VINTR));
	assert_int_equal(v->stats.count[EK_OTHER], 1); /* the window's */
}

/* The guest arms its one-shot timer (during an exit, as its MMIO write
 * would): the next entry arms the host timer for it and injects nothing;
 * once the time has passed, the host timer's tick exits and the entry
 * after it injects the timer's vector. */
static void arm_guest_timer(void)
{
	vlapic_sync(v);
	assert_int_equal(vlapic_reg_write(&v->lapic, APIC_REG_TIMER_INIT, 1000),
			 0);
}

/* The guest's LAPIC timer in one-shot mode, divide by 1, TIMER_VEC. */
static void oneshot_timer_mode(void)
{
	assert_int_equal(vlapic_reg_write(&v->lapic, APIC_REG_TIMER_DIV,
					  APIC_TIMER_DIV_1),
			 0);
	assert_int_equal(
		vlapic_reg_write(&v->lapic, APIC_REG_LVT_TIMER, TIMER_VEC), 0);
}

static void ten_ms_later(void)
{
	now += 10 * MS;
}

static void test_timer_expiry_at_entry(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR,
		  .guest = set_if,
		  .then = arm_guest_timer },
		{ .code = VMEXIT_INTR, .tick = true, .then = ten_ms_later },
		RF_OUTB(0xf4, 0),
	};
	(void)s;
	oneshot_timer_mode();
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	/* No watchdog here (watchdog_ms=0): each start was for the guest's
	 * timer, at the entry after it was armed and after the tick. */
	assert_int_equal(arms, 2);
	assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(entry(2)->vmcb.control.event_inj, EVENT(TIMER_VEC));
}

/* The guest's `sti; hlt` with an interrupt posted between the two: the
 * HLT exit comes in STI's shadow, with IF=1 and the vector in the IRR.
 * The HLT does not wait (the CPU would not halt), and the step over it ends
 * the shadow, so the next entry injects the vector instead of opening a
 * window after the HLT (APM vol 2 15.21.5; AUDIT B3). */
static void sti_hlt(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags |= RFLAGS_IF;
	vm->control.int_shadow |= INT_SHADOW;
}

static unsigned host_halts(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < FAKE_NCPUS; i++)
		n += fake_cpus[i].halt_count;
	return n;
}

static void test_sti_hlt_pending_not_lost(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_HLT, .guest = sti_hlt, .then = post },
		RF_OUTB(0xf4, 0),
	};
	unsigned halts = host_halts();

	(void)s;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(2);
	assert_int_equal(host_halts(), halts);
	assert_int_equal(v->stats.halt_waits, 0);
	assert_int_equal(entry(1)->vmcb.save.rip, RF_ENTRY + 1);
	assert_int_equal(entry(1)->vmcb.control.int_shadow & INT_SHADOW, 0);
	assert_int_equal(entry(1)->vmcb.control.event_inj, EVENT(VEC));
	assert_false(entry(1)->vmcb.control.v_intr & V_IRQ);
	assert_true(in_service(VEC));
}

/* `sti; hlt` with the guest's one-shot timer armed: the HLT waits in the
 * host with the host timer started for the guest timer (count_arms()
 * checks the order), wakes when it has expired, and the next entry
 * injects the timer's vector. */
static void test_sti_hlt_timer_wakes(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_HLT,
		  .guest = sti_hlt,
		  .then = arm_guest_timer },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	oneshot_timer_mode();
	wait_step = MS;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(2);
	assert_true(arms >= 1);
	assert_int_equal(entry(1)->vmcb.save.rip, RF_ENTRY + 1);
	assert_int_equal(entry(1)->vmcb.control.event_inj, EVENT(TIMER_VEC));
}

/* A wait that the watchdog's tick came into (the tick flag set) and an
 * interrupt ended, with the guest's timer still to come: back in the run
 * loop the tick's start replaces the wait's start for the guest timer, so
 * the next entry starts the guest's again, and the last start is not the
 * 10 ms tick (a stale host_at kept it, delaying the guest timer). */
static void post_during_wait(void)
{
	post_at_start = true;
}

static void test_tick_after_wait_restarts_guest_timer(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR,
		  .guest = set_if,
		  .then = arm_guest_timer },
		{ .code = VMEXIT_HLT, .tick = true, .then = post_during_wait },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	oneshot_timer_mode();
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	assert_false(post_at_start); /* the wait started the host timer */
	assert_int_equal(entry(2)->vmcb.control.event_inj, EVENT(VEC));
	/* entry 1's start, the wait's, the tick's, entry 2's */
	assert_int_equal(arms, 4);
	assert_true(last_init != WD_TICKS);
}

/* guest_time_ms in a wait (issue 24, 2): `sti; hlt` with nothing armed
 * waits up to 55 ms in the host, but with a limit on, the wait starts the
 * host timer for the next tick and runs the run loop's checks when it
 * fires: the guest stops at the first tick past its 5 ms, in the HLT, and
 * never enters again. */
static void test_hlt_wait_honours_time_limit(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_HLT, .guest = set_if },
	};

	(void)s;
	g->time_ms = 5;
	wait_step = 10 * MS; /* the tick's 10 ms pass */
	tick_at_start = true;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	assert_int_equal(fake_vmrun_count(), 1);
	assert_true(g->stopping);
	assert_true(g->failed);
	if (!strstr(g->stop_reason, "run-time limit of 5 ms reached") ||
	    !strstr(g->stop_reason, "in HLT"))
		fail_msg("stop reason '%s'", g->stop_reason);
	assert_int_equal(arms, 2); /* the watchdog's first tick, the wait's */
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
 * tscdeadline): with IF=1 the write itself puts the timer's vector in
 * service and in EVENTINJ for the entry after the WRMSR, IRR untouched;
 * with IF=0 it goes the general way (the poll at entry, IRR, a window),
 * as the vLAPIC's state stays for it. */
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

	assert_int_equal(vlapic_reg_write(&v->lapic, APIC_REG_LVT_TIMER,
					  (APIC_TIMER_TSC_DEADLINE << 17) |
						  TIMER_VEC),
			 0);
	now = 1000;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(2);
	rip = entry(0)->vmcb.save.rip;
	assert_int_equal(entry(1)->vmcb.save.rip, rip + 2); /* WRMSR done */
	assert_int_equal(vlapic_tsc_deadline_read(&v->lapic), 0); /* fired */
	assert_int_equal(v->lapic.fired, 1);
	if (if_on) {
		assert_int_equal(entry(1)->vmcb.control.event_inj,
				 EVENT(TIMER_VEC));
		assert_true(in_service(TIMER_VEC));
		assert_false(vlapic_irr_any(&v->lapic));
	} else {
		assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
		assert_true(entry(1)->vmcb.control.v_intr & V_IRQ);
		assert_false(in_service(TIMER_VEC));
		assert_true(vlapic_irr_any(&v->lapic));
	}
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
	vlapic_guest_start(g);
	arm_guest_timer();
	/* The turn before consumed every ask (and another CPU's timer held
	 * its start): only this turn can ask again. */
	__atomic_and_fetch(&v->lapic.pending, ~VLAPIC_PEND_LOCAL,
			   __ATOMIC_RELAXED);
	v->lapic.c.host_at = 5 * MS;
	v->se.last_cpu = 1;
	v->state = VCPU_RUNNING; /* as its queue marks it for a turn */
	fake_vmrun_script(script, ARRAY_SIZE(script));
	assert_int_equal(vcpu_run(v), SCHED_EXIT);
	check_passed(1);
	assert_int_equal(arms, 1);
	assert_true(last_init != WD_TICKS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pending_injected_at_entry,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_blocked_opens_window,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_timer_expiry_at_entry,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_sti_hlt_pending_not_lost,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_sti_hlt_timer_wakes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_tick_after_wait_restarts_guest_timer, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_hlt_wait_honours_time_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_passed_deadline_injected_at_write, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_passed_deadline_if_off_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_new_turn_restarts_guest_timer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
