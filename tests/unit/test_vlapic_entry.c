// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_entry.c - a foreign guest's vLAPIC on the way into
 * the guest, through the run loop (hv/svm/vcpu_run.c ->
 * vlapic_inject_pending(), hv/svm/vlapic_inject.c) over the world-switch
 * double: an interrupt posted while the vCPU was out is in EVENTINJ at the
 * next entry when the guest can take it; when it cannot (IF=0), that entry
 * opens a window (V_IRQ and the VINTR intercept) instead, and the entry
 * after the window's exit injects it; the guest's timer is polled at
 * entry and the host timer armed for it. test_vlapic_inject.c checks the
 * same function called by hand, event by event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apicdef.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/run/run.h"
#include "hv/svm/vlapic_vcpu.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
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

static u64 clock_now(void)
{
	return now;
}

static void count_arms(u32 msr, u64 val)
{
	if (msr == X2APIC_MSR(APIC_REG_TIMER_INIT) && val)
		arms++;
}

/* A multiboot guest whose vCPU 0 has its vLAPIC software-enabled. */
static int setup(void **s)
{
	struct guest_params p;

	(void)s;
	rf_setup(1, 0);
	now = 0;
	arms = 0;
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
	assert_int_equal(vlapic_reg_write(&v->lapic, APIC_REG_TIMER_DIV,
					  APIC_TIMER_DIV_1),
			 0);
	assert_int_equal(
		vlapic_reg_write(&v->lapic, APIC_REG_LVT_TIMER, TIMER_VEC), 0);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	/* No watchdog here (watchdog_ms=0): each start was for the guest's
	 * timer, at the entry after it was armed and after the tick. */
	assert_int_equal(arms, 2);
	assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(entry(2)->vmcb.control.event_inj, EVENT(TIMER_VEC));
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
