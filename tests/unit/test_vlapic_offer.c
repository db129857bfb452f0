// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_offer.c - a foreign guest's fixed interrupts
 * through V_IRQ (APM vol 2 15.21.4) against a fake vCPU and VMCB:
 * vlapic_inject_pending() before VMRUN, vlapic_exit_offer() after the exit.
 * Offered, not acknowledged; acknowledged when V_IRQ reads back clear;
 * re-evaluated when it is still set (a higher vector replaces it); an
 * NMI through EVENTINJ beside it; an interrupted delivery (EXITINTINFO);
 * INIT; the guest's TPR applied by the CPU (V_TPR, V_IGN_TPR=0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/guest/guest.h"
#include "hv/platform/lapic.h"
#include "hv/svm/exit.h"
#include "tests/unit/svm_fixture.h"

#define V_IRQ BIT(8)
#define V_IGN_TPR BIT(20)
#define NMI_EVENT (2 | EVENTINJ_TYPE_NMI | EVENTINJ_VALID)

static struct vcpu *v;
static struct vmcb_control *c;
static struct vlapic *l;

static int setup(void **s)
{
	fx_cmocka_setup(s);
	v = fx_v[0];
	c = &v->vmcb->control;
	l = &v->lapic;
	fx_g->plat.on = true;
	vlapic_init(l, &(struct vlapic_config){ .vcpu_id = 0,
						 .bsp = true,
						 .x2apic = true,
						 .maxphyaddr = 48,
						 .tsc_khz = 1000000 });
	vlapic_reg_write(l, 0xf0, 0x1ff); /* SVR: software-enabled */
	return 0;
}

static bool irr(u8 vec)
{
	return l->irr[vec >> 5] & (1u << (vec & 31));
}

static bool isr(u8 vec)
{
	return l->isr[vec >> 5] & (1u << (vec & 31));
}

static u8 offered(void)
{
	return (u8)(c->v_intr >> 32);
}

static u8 prio(void)
{
	return (c->v_intr >> 16) & 0xf;
}

/* Entry: the VMCB as the CPU will load it, every clean bit set. */
static void entry(void)
{
	c->clean = VMCB_CLEAN_ALL;
	vlapic_inject_pending(v);
}

/* Offered whatever IF says (the CPU waits for IF=1 itself), with the
 * guest's TPR for the CPU to apply; no EVENTINJ, no intercept, no ack. */
static void test_offer_without_ack(void **s)
{
	(void)s;
	v->vmcb->save.rflags = 0x2; /* IF=0 */
	vlapic_reg_write(l, 0x80, 0x30); /* TPR class 3 */
	vlapic_set_irr(l, 0x51, false);
	entry();
	assert_int_equal(c->event_inj, 0);
	assert_true(c->v_intr & V_IRQ);
	assert_false(c->v_intr & V_IGN_TPR);
	assert_int_equal(offered(), 0x51);
	assert_int_equal(prio(), 5);
	assert_int_equal(c->v_intr & 0xf, 3); /* V_TPR */
	assert_false(vmcb_has_intercept(v->vmcb, INTERCEPT_VINTR));
	assert_int_equal(c->clean & VMCB_CLEAN_TPR, 0);
	assert_false(isr(0x51));
}

/* The exit finds V_IRQ clear: the CPU took it, IRR -> ISR; the next entry
 * offers nothing. */
static void test_ack_when_taken(void **s)
{
	(void)s;
	vlapic_set_irr(l, 0x51, false);
	entry();
	c->v_intr &= ~V_IRQ; /* the CPU took it */
	vlapic_exit_offer(v);
	assert_true(isr(0x51));
	assert_false(irr(0x51));
	assert_int_equal(l->c.offer, 0);
	entry();
	assert_false(c->v_intr & V_IRQ);
	assert_int_equal(c->clean & VMCB_CLEAN_TPR, VMCB_CLEAN_TPR);
}

/* Still set: not taken, not acknowledged; offered again, the same V_IRQ
 * (clean bit kept). A higher vector arriving meanwhile replaces it. */
static void test_not_taken_reoffered(void **s)
{
	(void)s;
	v->vmcb->save.rflags = 0x2;
	vlapic_set_irr(l, 0x51, false);
	entry();
	vlapic_exit_offer(v); /* V_IRQ still set */
	assert_true(irr(0x51));
	assert_false(isr(0x51));
	entry();
	assert_int_equal(offered(), 0x51);
	assert_int_equal(c->clean & VMCB_CLEAN_TPR, VMCB_CLEAN_TPR);
	vlapic_set_irr(l, 0x62, false);
	vlapic_exit_offer(v);
	entry();
	assert_int_equal(offered(), 0x62);
	assert_int_equal(prio(), 6);
	assert_int_equal(c->clean & VMCB_CLEAN_TPR, 0);
	assert_true(irr(0x51));
	assert_int_equal(l->isr[2] | l->isr[3], 0);
}

/* An NMI goes through EVENTINJ (with the IRET intercept) beside the
 * offered vector; an NMI held by a shadow opens the window (V_IGN_TPR and
 * VINTR) instead of an offer, and the vector follows it. */
static void test_nmi_beside_offer(void **s)
{
	(void)s;
	vlapic_set_irr(l, 0x62, false);
	vlapic_deliver(l, VLAPIC_DM_NMI, 0, false);
	entry();
	assert_int_equal(c->event_inj, NMI_EVENT);
	assert_true(vmcb_has_intercept(v->vmcb, INTERCEPT_IRET));
	assert_true(c->v_intr & V_IRQ);
	assert_int_equal(offered(), 0x62);
	c->event_inj = 0;
	c->v_intr &= ~V_IRQ;
	vlapic_exit_offer(v);
	assert_true(isr(0x62));
	/* The NMI's IRET retired; a second NMI in a shadow. */
	l->c.nmi_masked = false;
	vlapic_eoi(l);
	vlapic_set_irr(l, 0x63, false);
	vlapic_deliver(l, VLAPIC_DM_NMI, 0, false);
	c->int_shadow = 1;
	entry();
	assert_int_equal(c->event_inj, 0);
	assert_true(vmcb_has_intercept(v->vmcb, INTERCEPT_VINTR));
	assert_true(c->v_intr & V_IGN_TPR);
	assert_int_equal(l->c.offer, 0);
	assert_true(irr(0x63));
	/* The window exit; then the NMI and the vector. */
	c->int_shadow = 0;
	assert_int_equal(vlapic_exit_vintr(v), EXIT_RESUME);
	entry();
	assert_int_equal(c->event_inj, NMI_EVENT);
	assert_false(vmcb_has_intercept(v->vmcb, INTERCEPT_VINTR));
	assert_false(c->v_intr & V_IGN_TPR);
	assert_int_equal(offered(), 0x63);
}

/* An exit in the middle of taking the offered vector: EXITINTINFO holds
 * it (type INTR), V_IRQ clear (hardware) or still set (QEMU). Neither
 * acknowledged nor re-injected through EVENTINJ: offered again. */
static void test_interrupted_delivery(void **s)
{
	const u64 ii = 0x51 | EVENTINJ_TYPE_INTR | EVENTINJ_VALID;

	(void)s;
	vlapic_set_irr(l, 0x51, false);
	for (int hw = 0; hw < 2; hw++) {
		entry();
		if (hw)
			c->v_intr &= ~V_IRQ;
		c->exit_int_info = ii;
		vlapic_exit_offer(v);
		assert_false(c->exit_int_info & EVENTINJ_VALID);
		vcpu_reinject_event(v);
		assert_int_equal(c->event_inj, 0);
		assert_true(irr(0x51));
		assert_false(isr(0x51));
		entry();
		assert_int_equal(offered(), 0x51);
		assert_true(c->v_intr & V_IRQ);
		vlapic_exit_offer(v);
	}
	/* Another event's EXITINTINFO (an exception) is not ours. */
	entry();
	c->exit_int_info = 14 | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	vlapic_exit_offer(v);
	assert_true(c->exit_int_info & EVENTINJ_VALID);
	assert_true(irr(0x51));
}

/* INIT between the exit and the next entry: the offer goes with IRR, and
 * V_IRQ with it (its clean bit dropped); likewise an offer INIT found
 * still out (vlapic_init_reset()). */
static void test_init_drops_offer(void **s)
{
	(void)s;
	v->vmcb->save.rflags = 0x2;
	vlapic_set_irr(l, 0x51, false);
	entry();
	vlapic_exit_offer(v);
	vlapic_deliver(l, VLAPIC_DM_INIT, 0, false);
	assert_int_equal(vlapic_take_startup(l), -1);
	entry();
	assert_false(c->v_intr & V_IRQ); /* the vector field is inert */
	assert_int_equal(c->clean & VMCB_CLEAN_TPR, 0);
	assert_false(irr(0x51));
	assert_int_equal(l->c.offer, 0);
	vlapic_reg_write(l, 0xf0, 0x1ff);
	vlapic_set_irr(l, 0x52, false);
	entry();
	assert_int_equal(offered(), 0x52);
	vlapic_init_reset(l);
	assert_int_equal(l->c.offer, 0);
	entry();
	assert_false(c->v_intr & V_IRQ);
	assert_false(irr(0x52) || isr(0x52));
}

/* The TPR: a vector at or under its class is not offered; one above is,
 * with V_TPR and V_INTR_PRIO for the CPU to compare (a CR8 raise while it
 * waits holds it back); TPR lowered, the held vector follows. */
static void test_tpr_respected(void **s)
{
	(void)s;
	vlapic_reg_write(l, 0x80, 0x50);
	vlapic_set_irr(l, 0x55, false);
	entry();
	assert_false(c->v_intr & V_IRQ);
	assert_int_equal(c->v_intr & 0xf, 5);
	vlapic_set_irr(l, 0x61, false);
	entry();
	assert_int_equal(offered(), 0x61);
	assert_int_equal(prio(), 6);
	assert_false(c->v_intr & V_IGN_TPR);
	/* The guest raised CR8 to 6: the CPU held it back. */
	c->v_intr = (c->v_intr & ~0xfULL) | 6;
	vlapic_exit_offer(v);
	vlapic_sync_tpr(v);
	entry();
	assert_false(c->v_intr & V_IRQ);
	assert_true(irr(0x61) && irr(0x55));
	c->v_intr &= ~0xfULL; /* CR8 = 0 */
	vlapic_sync_tpr(v);
	entry();
	assert_int_equal(offered(), 0x61);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_offer_without_ack),    T(test_ack_when_taken),
		T(test_not_taken_reoffered),  T(test_nmi_beside_offer),
		T(test_interrupted_delivery), T(test_init_drops_offer),
		T(test_tpr_respected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
