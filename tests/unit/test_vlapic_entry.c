// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_entry.c - a foreign guest's vLAPIC on the way into
 * the guest, through the run loop (hv/svm/vcpu_run.c ->
 * vlapic_inject_pending(), hv/svm/vlapic_inject.c) over the world-switch
 * double: an interrupt posted while the vCPU was out is offered through
 * V_IRQ at the next entry, taken by the CPU when the guest allows, and
 * settled at the exit (vlapic_exit_offer(): taken, in service before the
 * handler runs; not taken, back in IRR, re-offered or replaced by a higher
 * one; interrupted, EXITINTINFO, offered again, never EVENTINJ); after
 * `sti; hlt` it is offered, not waited for. The guest's timer at entry and
 * in waits: test_vlapic_entry_timer.c. test_vlapic_inject.c checks the
 * same function called by hand, event by event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch/apicdef.h"
#include "arch/errno.h"
#include "arch/msr.h"
#include "arch/uart_regs.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/run/run.h"
#include "hv/svm/vlapic_vcpu.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "hv/features.h"
#include "tests/doubles/fake_vmrun.h"
#include "tests/unit/run_fixture.h"
#include "tests/unit/vlapic_entry_fixture.h"

#define EVENT(vec) ((vec) | EVENTINJ_TYPE_INTR | EVENTINJ_VALID)
#define HIGH_VEC 0x61 /* a higher class than VEC */
#define LOW_VEC 0x30 /* a lower class than VEC */

/* IF=1: the interrupt posted during an exit is offered at the next entry
 * (V_IRQ, not EVENTINJ), the CPU takes it, and the exit after it finds
 * it in service, IRR empty: delivered once. */
static void test_pending_offered_and_taken(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = ve_set_if, .then = ve_post },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	ve_run_passed(script, ARRAY_SIZE(script), 2);
	assert_int_equal(ve_entry(0)->vmcb.control.event_inj, 0);
	assert_int_equal(ve_offer_of(0), 0);
	assert_int_equal(ve_entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
	assert_false(vmcb_has_intercept(&ve_entry(1)->vmcb, INTERCEPT_VINTR));
	assert_int_equal(fake_virq_taken, 1);
	assert_int_equal(fake_virq_last, VEC);
	assert_false(vlapic_irr_any(&ve_v->lapic));
	assert_true(ve_in_service(VEC));
	assert_false(ve_v->vmcb->control.v_intr & V_IRQ);
}

/* IF=0: the offer is not taken; the exit gives it back (out of service,
 * back in IRR, V_IRQ withdrawn) and the next entry offers it again, with
 * no window exit of its own. Once the guest has IF=1 the CPU takes it. */
static void test_offer_not_taken_offered_again(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = ve_clear_if, .then = ve_post },
		{ .code = VMEXIT_INTR, .guest = ve_set_if },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	ve_run_passed(script, ARRAY_SIZE(script), 3);
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
	assert_int_equal(ve_entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(ve_offer_of(2), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 1); /* at entry 2 only */
	assert_true(ve_in_service(VEC));
	assert_false(vlapic_irr_any(&ve_v->lapic));
	assert_int_equal(ve_v->stats.count[EK_OTHER], 0); /* no VINTR exit */
}

/* A higher vector arrives while VEC is offered and not taken: the exit
 * gives VEC back, the next entry offers the higher one instead; VEC
 * waits in IRR (its class is below the one now in service). */
static void post_high(void)
{
	vlapic_deliver(&ve_v->lapic, APIC_DM_FIXED, HIGH_VEC, false);
}

static void test_offer_replaced_by_higher(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = ve_clear_if, .then = ve_post },
		{ .code = VMEXIT_INTR, .guest = ve_set_if, .then = post_high },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	ve_run_passed(script, ARRAY_SIZE(script), 3);
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
	assert_int_equal(ve_offer_of(2), OFFER(HIGH_VEC));
	assert_int_equal(fake_virq_taken, 1);
	assert_int_equal(fake_virq_last, HIGH_VEC);
	assert_true(ve_in_service(HIGH_VEC));
	assert_false(ve_in_service(VEC));
	assert_int_equal(vlapic_pending_vector(&ve_v->lapic), -ENOENT);
	assert_true(vlapic_irr_any(&ve_v->lapic)); /* VEC still requested */
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
		{ .code = VMEXIT_INTR, .guest = ve_set_if, .then = ve_post },
		{ .code = VMEXIT_INTR,
		  .int_info = EVENT(VEC),
		  .guest = v_irq_back,
		  .arg = qemu },
		RF_OUTB(0xf4, 0),
	};

	ve_run_passed(script, ARRAY_SIZE(script), 3);
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
	assert_int_equal(ve_entry(2)->vmcb.control.event_inj, 0);
	assert_int_equal(ve_offer_of(2), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 2); /* started twice, ended once */
	assert_true(ve_in_service(VEC));
	assert_false(vlapic_irr_any(&ve_v->lapic));
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

/* The offer is settled before the exit's handler: a taken vector is in
 * service when its handler's EOI exits, and that EOI ends it (no spare
 * EOI, no second offer). */
static void test_eoi_after_take(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = ve_set_if, .then = ve_post },
		{ .code = VMEXIT_MSR, .info1 = 1, .guest = wrmsr_eoi },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	ve_x2apic_on();
	ve_run_passed(script, ARRAY_SIZE(script), 3);
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 1);
	assert_false(ve_in_service(VEC));
	assert_false(ve_entry(2)->vmcb.control.v_intr & V_IRQ);
	assert_int_equal(ve_v->lapic.spare_eois, 0);
}

/* An offer not taken (IF=0, the guest still in LOW_VEC's handler) is out
 * of service again before the handler's EOI runs, so that EOI ends
 * LOW_VEC, not the offered VEC, which is offered again afterwards. */
static void low_in_service(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags &= ~RFLAGS_IF;
	vlapic_ack(&ve_v->lapic, LOW_VEC);
}

static void test_eoi_with_offer_not_taken(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR,
		  .guest = low_in_service,
		  .then = ve_post },
		{ .code = VMEXIT_MSR, .info1 = 1, .guest = wrmsr_eoi },
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	ve_x2apic_on();
	ve_run_passed(script, ARRAY_SIZE(script), 3);
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
	assert_int_equal(ve_offer_of(2), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 0); /* IF=0 throughout */
	assert_false(ve_in_service(LOW_VEC));
	assert_false(ve_in_service(VEC));
	assert_true(vlapic_pending_vector(&ve_v->lapic) == VEC);
	assert_int_equal(ve_v->lapic.spare_eois, 0);
}

/* COM1's console exits (THR written, LSR read: hv/svm/exit_io.h's fast
 * path) while an offer waits for IF=1, as the 8250 handler's FIFO loads
 * run: the offer stays as it was, V_IRQ set and VEC in service, and the
 * VMCB's V_INTR stays clean (a give-back and re-offer per exit would
 * mark it dirty); the bytes reach the console (the newline through the
 * general path), LSR's value reaches AL, RIP moves on, and each exit is
 * counted as IOIO. */
static void inb_lsr(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->control.exit_info2 = vm->save.rip + 1;
}

static void test_com1_exits_keep_offer(void **s)
{
	const u64 lsr_in = ((u64)(UART_COM1_PORT + UART_LSR) << 16) |
			   RF_IOIO_SZ8 | IOIO_INFO_IN;
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .guest = ve_clear_if, .then = ve_post },
		RF_OUTB(UART_COM1_PORT, 'o'),
		RF_OUTB(UART_COM1_PORT, 'k'),
		{ .code = VMEXIT_IOIO, .info1 = lsr_in, .guest = inb_lsr },
		RF_OUTB(UART_COM1_PORT, '\n'),
		RF_OUTB(0xf4, 0),
	};

	(void)s;
	g_features.vmcb_clean = true; /* back at teardown_clean() */
	ve_run_passed(script, ARRAY_SIZE(script), 6);
	for (unsigned i = 1; i < 6; i++)
		assert_int_equal(ve_offer_of(i), OFFER(VEC));
	for (unsigned i = 2; i < 6; i++)
		assert_int_equal(ve_entry(i)->vmcb.save.rip, RF_ENTRY + i - 1);
	/* The line's end went the general way (uart_out() writes it). */
	for (unsigned i = 2; i < 5; i++)
		assert_true(ve_entry(i)->vmcb.control.clean & VMCB_CLEAN_TPR);
	assert_int_equal(ve_entry(4)->vmcb.save.rax & 0xff,
			 UART_LSR_THRE | UART_LSR_TEMT);
	assert_int_equal(fake_virq_taken, 0); /* IF=0 throughout */
	/* The last exit (isa-debug-exit) gave it back: requested still. */
	assert_false(ve_in_service(VEC));
	assert_true(vlapic_pending_vector(&ve_v->lapic) == VEC);
	assert_int_equal(ve_v->stats.count[EK_IOIO], 5);
	assert_true(fake_console_has("ok\n"));
}

/* ve_teardown(), and the VMCB clean-bit support a test turned on off
 * again, however the test ended. */
static int teardown_clean(void **s)
{
	g_features.vmcb_clean = false;
	return ve_teardown(s);
}

static unsigned host_halts(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < FAKE_NCPUS; i++)
		n += fake_cpus[i].halt_count;
	return n;
}

/* The guest's `sti; hlt` with an interrupt posted between the two: the
 * HLT exit comes in STI's shadow, with IF=1 and the vector in the IRR.
 * The HLT does not wait (the CPU would not halt), and the step over it ends
 * the shadow, so the next entry offers the vector and the CPU takes it
 * right after the HLT (APM vol 2 15.21.5; AUDIT B3). */
static void test_sti_hlt_pending_not_lost(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_HLT, .guest = ve_sti_hlt, .then = ve_post },
		RF_OUTB(0xf4, 0),
	};
	unsigned halts = host_halts();

	(void)s;
	ve_run_passed(script, ARRAY_SIZE(script), 2);
	assert_int_equal(host_halts(), halts);
	assert_int_equal(ve_v->stats.halt_waits, 0);
	assert_int_equal(ve_entry(1)->vmcb.save.rip, RF_ENTRY + 1);
	assert_int_equal(ve_entry(1)->vmcb.control.int_shadow & INT_SHADOW, 0);
	assert_int_equal(ve_entry(1)->vmcb.control.event_inj, 0);
	assert_int_equal(ve_offer_of(1), OFFER(VEC));
	assert_int_equal(fake_virq_taken, 1);
	assert_true(ve_in_service(VEC));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pending_offered_and_taken,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(
			test_offer_not_taken_offered_again, ve_setup,
			ve_teardown),
		cmocka_unit_test_setup_teardown(test_offer_replaced_by_higher,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(test_offer_interrupted_hw,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(test_offer_interrupted_qemu,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(test_eoi_after_take, ve_setup,
						ve_teardown),
		cmocka_unit_test_setup_teardown(test_eoi_with_offer_not_taken,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(test_sti_hlt_pending_not_lost,
						ve_setup, ve_teardown),
		cmocka_unit_test_setup_teardown(test_com1_exits_keep_offer,
						ve_setup, teardown_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
