// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_entry.c - a foreign guest's vLAPIC on the way into
 * the guest, through the run loop (hv/svm/vcpu_run.c ->
 * vlapic_inject_pending(), hv/svm/vlapic_inject.c) over the world-switch
 * double: an interrupt posted while the vCPU was out is offered through
 * V_IRQ at the next entry, taken by the CPU when the guest allows, and
 * settled at the exit (vlapic_exit_offer(): taken, in service before the
 * handler runs; not taken, back in IRR, re-offered or replaced by a higher
 * one; interrupted, EXITINTINFO, offered again, never EVENTINJ); the
 * guest's timer is polled at entry and the host timer armed for it, again
 * at each new turn of the vCPU (hv/svm/sched_cpu.c).
 * test_vlapic_inject.c checks the same function called by hand, event by
 * event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apicdef.h"
#include "arch/errno.h"
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
#define HIGH_VEC 0x61 /* a higher class than VEC */
#define LOW_VEC 0x30 /* a lower class than VEC */
/* What an offer sets in V_INTR: V_IRQ, the class, the vector, the CPU
 * applying V_TPR (V_IGN_TPR clear). */
#define OFFER_MASK (V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf) | V_INTR_VECTOR(0xff))
#define OFFER(vec) (V_IRQ | V_INTR_PRIO((vec) >> 4) | V_INTR_VECTOR(vec))
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

static u64 offer_of(unsigned i)
{
	return entry(i)->vmcb.control.v_intr & OFFER_MASK;
}

/* IF=1: the interrupt posted during an exit is offered at the next entry
 * (V_IRQ, not EVENTINJ), the CPU takes it, and the exit after it finds
 * it in service, IRR empty: delivered once. */
static void test_pending_offered_and_taken(void **s)
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
	assert_int_equal(offer_of(0), 0);
	assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(offer_of(1), OFFER(VEC));
	assert_false(vmcb_has_intercept(&entry(1)->vmcb, INTERCEPT_VINTR));
	assert_int_equal(fake_virq_taken, 1);
	assert_int_equal(fake_virq_last, VEC);
	assert_false(vlapic_irr_any(&v->lapic));
	assert_true(in_service(VEC));
	assert_false(v->vmcb->control.v_intr & V_IRQ);
}

/* IF=0: the offer is not taken; the exit gives it back (out of service,
 * back in IRR, V_IRQ withdrawn) and the next entry offers it again, with
 * no window exit of its own. Once the guest has IF=1 the CPU takes it. */
static void test_offer_not_taken_offered_again(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = clear_if, .then = post },
		{ .code = VMEXIT_INTR, .guest = set_if },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	assert_int_equal(offer_of(1), OFFER(VEC));
	assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(offer_of(2), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 1); /* at entry 2 only */
	assert_true(in_service(VEC));
	assert_false(vlapic_irr_any(&v->lapic));
	assert_int_equal(v->stats.count[EK_OTHER], 0); /* no VINTR exit */
}

/* A higher vector arrives while VEC is offered and not taken: the exit
 * gives VEC back, the next entry offers the higher one instead; VEC
 * waits in IRR (its class is below the one now in service). */
static void post_high(void)
{
	vlapic_deliver(&v->lapic, APIC_DM_FIXED, HIGH_VEC, false);
}

static void test_offer_replaced_by_higher(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = clear_if, .then = post },
		{ .code = VMEXIT_INTR, .guest = set_if, .then = post_high },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	assert_int_equal(offer_of(1), OFFER(VEC));
	assert_int_equal(offer_of(2), OFFER(HIGH_VEC));
	assert_int_equal(fake_virq_taken, 1);
	assert_int_equal(fake_virq_last, HIGH_VEC);
	assert_true(in_service(HIGH_VEC));
	assert_false(in_service(VEC));
	assert_int_equal(vlapic_pending_vector(&v->lapic), -ENOENT);
	assert_true(vlapic_irr_any(&v->lapic)); /* VEC still requested */
}

/* The exit came in the middle of taking the offer (EXITINTINFO type
 * INTR of the offered vector, APM 15.7.2): not delivered, so neither in
 * service nor re-injected through EVENTINJ, but offered again and taken
 * once. Hardware clears V_IRQ as it starts the delivery (qemu = false);
 * QEMU clears it only after a delivery that completed (qemu = true). */
static void v_irq_back(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	if (arg) /* QEMU's form: V_IRQ still set */
		vm->control.v_intr |= V_IRQ;
}

static void offer_interrupted(bool qemu)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = set_if, .then = post },
		{ .code = VMEXIT_INTR,
		  .int_info = EVENT(VEC),
		  .guest = v_irq_back,
		  .arg = qemu },
		RF_OUTB(0xf4, 0),
	};

	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	assert_int_equal(offer_of(1), OFFER(VEC));
	assert_int_equal(entry(2)->vmcb.control.event_inj, 0);
	assert_int_equal(offer_of(2), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 2); /* started twice, ended once */
	assert_true(in_service(VEC));
	assert_false(vlapic_irr_any(&v->lapic));
}

static void test_offer_interrupted_hw(void **s)
{
	(void)s;
	offer_interrupted(false);
}

static void test_offer_interrupted_qemu(void **s)
{
	(void)s;
	offer_interrupted(true);
}

/* The guest's x2APIC EOI (WRMSR 0x80B) as its exit. */
static void wrmsr_eoi(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)arg;
	r->rcx = X2APIC_MSR(APIC_REG_EOI);
	r->rdx = 0;
	vm->save.rax = 0;
}

static void x2apic_on(void)
{
	v->lapic.cfg.x2apic = true; /* as CPUID says it to a guest with it */
	assert_int_equal(
		vlapic_apic_base_write(&v->lapic,
				       APIC_DEFAULT_BASE | APIC_BASE_EN |
					       APIC_BASE_EXTD | APIC_BASE_BSP),
		0);
}

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
	x2apic_on();
	v->self_events = VCPU_SELF_TICK - 1;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(2);
	assert_true(v->self_events >= VCPU_SELF_TICK);
	assert_int_equal(last_init, WD_TICKS); /* the tick's start */
	assert_int_equal(offer_of(1), OFFER(VEC));
}

/* The offer is settled before the exit's handler: a taken vector is in
 * service when its handler's EOI exits, and that EOI ends it (no spare
 * EOI, no second offer). */
static void test_eoi_after_take(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = set_if, .then = post },
		{ .code = VMEXIT_MSR, .info1 = 1, .guest = wrmsr_eoi },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	x2apic_on();
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	assert_int_equal(offer_of(1), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 1);
	assert_false(in_service(VEC));
	assert_false(entry(2)->vmcb.control.v_intr & V_IRQ);
	assert_int_equal(v->lapic.spare_eois, 0);
}

/* An offer not taken (IF=0, the guest still in LOW_VEC's handler) is out
 * of service again before the handler's EOI runs, so that EOI ends
 * LOW_VEC, not the offered VEC, which is offered again afterwards. */
static void low_in_service(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags &= ~RFLAGS_IF;
	vlapic_ack(&v->lapic, LOW_VEC);
}

static void test_eoi_with_offer_not_taken(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = low_in_service, .then = post },
		{ .code = VMEXIT_MSR, .info1 = 1, .guest = wrmsr_eoi },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	x2apic_on();
	fake_vmrun_script(script, ARRAY_SIZE(script));
	run_guest(g);
	check_passed(3);
	assert_int_equal(offer_of(1), OFFER(VEC));
	assert_int_equal(offer_of(2), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 0); /* IF=0 throughout */
	assert_false(in_service(LOW_VEC));
	assert_false(in_service(VEC));
	assert_true(vlapic_pending_vector(&v->lapic) == VEC);
	assert_int_equal(v->lapic.spare_eois, 0);
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
	assert_int_equal(offer_of(1), 0);
	assert_int_equal(offer_of(2), OFFER(TIMER_VEC));
}

/* The guest's `sti; hlt` with an interrupt posted between the two: the
 * HLT exit comes in STI's shadow, with IF=1 and the vector in the IRR.
 * The HLT does not wait (the CPU would not halt), and the step over it ends
 * the shadow, so the next entry offers the vector and the CPU takes it
 * right after the HLT (APM vol 2 15.21.5; AUDIT B3). */
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
	assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(offer_of(1), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 1);
	assert_true(in_service(VEC));
}

/* `sti; hlt` with the guest's one-shot timer armed: the HLT waits in the
 * host with the host timer started for the guest timer (count_arms()
 * checks the order), wakes when it has expired, and the next entry
 * offers the timer's vector. */
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
	assert_int_equal(offer_of(1), OFFER(TIMER_VEC));
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
	assert_int_equal(offer_of(2), OFFER(VEC));
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
	assert_int_equal(entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(offer_of(1), OFFER(TIMER_VEC));
	assert_int_equal(fake_virq_taken, if_on ? 1 : 0);
	assert_int_equal(in_service(TIMER_VEC), if_on);
	assert_int_equal(vlapic_irr_any(&v->lapic), !if_on);
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
		cmocka_unit_test_setup_teardown(test_pending_offered_and_taken,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_offer_not_taken_offered_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_offer_replaced_by_higher,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_offer_interrupted_hw,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_offer_interrupted_qemu,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_eoi_after_take, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_self_ipi_takes_tick, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_eoi_with_offer_not_taken,
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
