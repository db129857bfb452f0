// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_irq.c - the virtual local APIC's interrupt
 * delivery: priority arbitration, EOI order, TPR/PPR, every destination
 * mode and shorthand on a bus of four vLAPICs (vlapic_bus_fixture.h),
 * INIT/SIPI, what to inject in an interrupt shadow, and the pending summary
 * the entry path tests instead of the events. Its timer is
 * test_vlapic_timer.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/vlapic/vlapic.h"
#include "tests/unit/vlapic_bus_fixture.h"

static u32 r(struct vlapic *l, u32 off)
{
	u64 v = 0xbad;

	assert_int_equal(vlapic_reg_read(l, off, &v), 0);
	return (u32)v;
}

static void to_x2(struct vlapic *l)
{
	assert_int_equal(vlapic_apic_base_write(l, APIC_DEFAULT_BASE |
							   APIC_BASE_EN |
							   APIC_BASE_EXTD),
			 0);
}

static void test_priority(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	vlapic_set_irr(l, 0x31, false);
	vlapic_set_irr(l, 0x52, false);
	vlapic_set_irr(l, 0x45, false);
	assert_int_equal(vlapic_pending_vector(l), 0x52);
	/* IRR[2] holds 0x52 and 0x45 (64-95). */
	assert_int_equal(r(l, 0x200 + 0x20), BIT(0x52 - 64) | BIT(0x45 - 64));
	vlapic_ack(l, 0x52);
	assert_false(irr(l, 0x52));
	assert_int_equal(r(l, 0x100 + 0x20), BIT(0x52 - 64)); /* ISR[2] */
	/* 0x45 is a lower class than the one in service: held. */
	assert_int_equal(vlapic_ppr(l), 0x50);
	assert_int_equal(vlapic_pending_vector(l), -ENOENT);
	/* Same class as in service: held too (11.8.3). */
	vlapic_set_irr(l, 0x5f, false);
	assert_int_equal(vlapic_pending_vector(l), -ENOENT);
	w(l, 0xb0, 0); /* EOI */
	assert_int_equal(vlapic_pending_vector(l), 0x5f);
	/* Software-disabled: nothing is delivered. */
	w(l, 0xf0, 0xff);
	assert_int_equal(vlapic_pending_vector(l), -ENOENT);
}

static void test_eoi_order(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	vlapic_set_irr(l, 0x40, false);
	vlapic_ack(l, 0x40);
	vlapic_set_irr(l, 0x61, false); /* nests above the one in service */
	assert_int_equal(vlapic_pending_vector(l), 0x61);
	vlapic_ack(l, 0x61);
	w(l, 0xb0, 0); /* the highest in service goes first */
	assert_int_equal(l->isr[2], BIT(0x40 - 64));
	assert_int_equal(l->isr[3], 0);
	assert_int_equal(vlapic_ppr(l), 0x40);
	w(l, 0xb0, 0);
	assert_int_equal(l->isr[2], 0);
	w(l, 0xb0, 0); /* nothing in service: ignored */
	assert_int_equal(vlapic_ppr(l), 0);
}

static void test_tpr_ppr(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	w(l, 0x80, 0x53);
	assert_int_equal(r(l, 0xa0), 0x53); /* PPR = TPR */
	vlapic_set_irr(l, 0x5e, false);
	assert_int_equal(vlapic_pending_vector(l), -ENOENT); /* class 5 <= 5 */
	assert_int_equal(r(l, 0x90), 0x53); /* APR = TPR */
	vlapic_set_irr(l, 0x61, false);
	assert_int_equal(vlapic_pending_vector(l), 0x61);
	assert_int_equal(r(l, 0x90), 0x60); /* APR: the IRR class */
	vlapic_ack(l, 0x61);
	assert_int_equal(r(l, 0xa0), 0x60); /* ISR class above TPR */
	w(l, 0x80, 0x70);
	assert_int_equal(r(l, 0xa0), 0x70);
}

static u32 mask_of(u32 want_irr_vec)
{
	u32 m = 0;

	for (u32 i = 0; i < N; i++)
		if (irr(&cpu[i], (u8)want_irr_vec))
			m |= 1u << i;
	return m;
}

static void clear_irr(void)
{
	for (u32 i = 0; i < N; i++)
		memset(cpu[i].irr, 0, sizeof(cpu[i].irr));
}

static void test_xapic_destinations(void **s)
{
	struct vlapic *src = &cpu[1];

	(void)s;
	/* Physical. */
	w(src, 0x310, 2u << 24);
	w(src, 0x300, 0x50);
	assert_int_equal(mask_of(0x50), 1u << 2);
	assert_int_equal(notified[2], 1);
	clear_irr();
	w(src, 0x310, 0xffu << 24); /* physical broadcast */
	w(src, 0x300, 0x50);
	assert_int_equal(mask_of(0x50), 0xf);
	clear_irr();
	/* Logical flat: LDR bit i for CPU i. */
	for (u32 i = 0; i < N; i++)
		w(&cpu[i], 0xd0, (1u << i) << 24);
	w(src, 0x310, 0x0au << 24);
	w(src, 0x300, BIT(11) | 0x51);
	assert_int_equal(mask_of(0x51), 0xa);
	clear_irr();
	/* Logical cluster: cluster 1 member bits 3:0. */
	for (u32 i = 0; i < N; i++) {
		w(&cpu[i], 0xe0, 0x0fffffff);
		w(&cpu[i], 0xd0,
		  ((i >= 2 ? 0x30u : 0x10u) | (1u << (i & 1))) << 24);
	}
	/* CPUs 0,1 are cluster 1 members 1,2; CPUs 2,3 cluster 3. */
	w(src, 0x310, 0x12u << 24);
	w(src, 0x300, BIT(11) | 0x52);
	assert_int_equal(mask_of(0x52), 1u << 1);
	clear_irr();
	/* Shorthands: self, all including self, all but self. */
	w(src, 0x300, (1u << 18) | 0x53);
	assert_int_equal(mask_of(0x53), 1u << 1);
	w(src, 0x300, (2u << 18) | 0x54);
	assert_int_equal(mask_of(0x54), 0xf);
	w(src, 0x300, (3u << 18) | 0x55);
	assert_int_equal(mask_of(0x55), 0xd);
	clear_irr();
	/* Lowest priority: one target of the set. */
	w(src, 0x310, 0xffu << 24);
	w(src, 0x300, (1u << 8) | 0x56);
	assert_int_equal(__builtin_popcount(mask_of(0x56)), 1);
	/* Vector below 16: an error, nothing sent. */
	w(src, 0x300, (2u << 18) | 0x05);
	assert_int_equal(mask_of(0x05), 0);
}

static void test_x2apic_destinations(void **s)
{
	(void)s;
	for (u32 i = 0; i < N; i++)
		to_x2(&cpu[i]);
	/* Physical, 32-bit destination. */
	w(&cpu[0], 0x300, (3ULL << 32) | 0x60);
	assert_int_equal(mask_of(0x60), 1u << 3);
	w(&cpu[0], 0x300, (0xffULL << 32) | 0x61); /* not a broadcast */
	assert_int_equal(mask_of(0x61), 0);
	w(&cpu[0], 0x300, (0xffffffffULL << 32) | 0x62);
	assert_int_equal(mask_of(0x62), 0xf);
	clear_irr();
	/* Logical: cluster 0, members 1 and 2 (LDR = 1 << id). */
	w(&cpu[0], 0x300, (0x6ULL << 32) | BIT(11) | 0x63);
	assert_int_equal(mask_of(0x63), 0x6);
	w(&cpu[0], 0x300, (0x10006ULL << 32) | BIT(11) | 0x64);
	assert_int_equal(mask_of(0x64), 0); /* cluster 1 is empty */
	/* SELF_IPI (0x3f0). */
	w(&cpu[2], 0x3f0, 0x65);
	assert_int_equal(mask_of(0x65), 1u << 2);
	assert_int_equal(vlapic_reg_write(&cpu[2], 0x3f0, 0x165), -EINVAL);
}

/* Physical destinations look up the vCPU by index only while every
 * xAPIC ID is its index: once a guest moves one (CPU 3 takes ID 2), a
 * message to ID 2 reaches both that match, as on the bus; to ID 3 none.
 * A physical ID past the last vCPU reaches nobody. */
static void test_moved_xapic_id_still_matches(void **s)
{
	struct vlapic *src = &cpu[0];

	(void)s;
	w(src, 0x310, 7u << 24);
	w(src, 0x300, 0x57);
	assert_int_equal(mask_of(0x57), 0);
	w(&cpu[3], 0x20, 2u << 24); /* ID */
	w(src, 0x310, 2u << 24);
	w(src, 0x300, 0x58);
	assert_int_equal(mask_of(0x58), (1u << 2) | (1u << 3));
	w(src, 0x310, 3u << 24);
	w(src, 0x300, 0x59);
	assert_int_equal(mask_of(0x59), 0);
}

static void test_nmi_init_sipi(void **s)
{
	struct vlapic *t = &cpu[2];

	(void)s;
	w(t, 0x80, 0xf0); /* a TPR that blocks every fixed vector */
	t->lvt[0] = 0x40;
	vlapic_set_irr(t, 0x70, false);
	w(&cpu[0], 0x310, 2u << 24);
	w(&cpu[0], 0x300, 4u << 8); /* NMI */
	assert_true(t->nmi_pending);
	/* NMI and INIT wake a halted CPU whatever IF says. */
	assert_true(vlapic_wakeup(t, false));
	t->nmi_pending = 0;
	assert_false(vlapic_wakeup(t, true)); /* 0x70 is under TPR */
	w(&cpu[0], 0x300, (5u << 8) | BIT(14)); /* INIT, assert */
	assert_true(vlapic_wakeup(t, false));
	/* INIT while halted: wait-for-SIPI, registers reset, ID kept. */
	assert_int_equal(vlapic_take_startup(t), -ENOENT);
	assert_true(t->wait_sipi);
	assert_false(irr(t, 0x70));
	assert_int_equal(t->tpr, 0);
	assert_int_equal(r(t, 0x20), 2u << 24);
	assert_int_equal(t->lvt[0], BIT(16));
	/* SIPI: started at the vector, once. */
	w(&cpu[0], 0x300, (6u << 8) | 0x9a);
	assert_int_equal(vlapic_take_startup(t), 0x9a);
	assert_false(t->wait_sipi);
	/* A SIPI to a vCPU not in wait-for-SIPI is ignored. */
	w(&cpu[0], 0x300, (6u << 8) | 0x9b);
	assert_int_equal(vlapic_take_startup(t), -ENOENT);
	assert_false(t->wait_sipi);
	/* INIT then SIPI back to back (kvm-unit-tests' bring-up): both. */
	w(&cpu[0], 0x300, (5u << 8) | BIT(14));
	w(&cpu[0], 0x300, (6u << 8) | 0x9c);
	assert_int_equal(vlapic_take_startup(t), 0x9c);
	/* INIT de-assert (level 0, level-triggered) is no INIT. */
	w(&cpu[0], 0x300, (5u << 8) | BIT(15));
	assert_false(t->init_pending);
}

static void test_injection(void **s)
{
	struct vlapic *l = &cpu[0];
	u8 vec = 0;

	(void)s;
	vlapic_set_irr(l, 0x40, false);
	/* An interrupt shadow (or IF=0, or another event being injected)
	 * does not hold it: the glue offers it through V_IRQ and the CPU
	 * waits. Acknowledged at once; given back when not taken. */
	assert_int_equal(vlapic_next_event(l, true, true, &vec),
			 VLAPIC_INJ_INTR);
	assert_int_equal(vec, 0x40);
	assert_false(irr(l, 0x40));
	assert_int_equal(l->isr[2], 1u);
	vlapic_unack(l, 0x40);
	assert_true(irr(l, 0x40));
	assert_int_equal(l->isr[2], 0);
	assert_int_equal(l->isr_words, 0);
	assert_true(vlapic_event_maybe(l));
	/* Offered again: taken this time, it stays in service. */
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_INTR);
	assert_false(irr(l, 0x40));
	assert_int_equal(l->isr[2], 1u);
	/* NMI (EVENTINJ) and an interrupt offered beside it (taken after
	 * the NMI's delivery, when the guest allows); a second NMI waits
	 * for the first one's IRET. */
	vlapic_deliver(l, APIC_DM_NMI, 0, false);
	vlapic_set_irr(l, 0x80, false);
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_NMI | VLAPIC_INJ_INTR);
	assert_int_equal(vec, 0x80);
	vlapic_deliver(l, APIC_DM_NMI, 0, false);
	/* Masked, its IRET not seen yet: the IRET intercept will say. */
	assert_int_equal(vlapic_next_event(l, false, false, &vec), 0);
	assert_true(l->nmi_pending);
	/* IRET seen, not retired (c.iret_wait): an NMI window (B1). */
	l->c.iret_wait = true;
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_NMI_WINDOW);
	l->c.nmi_masked = l->c.iret_wait = false; /* IRET retired */
	/* An NMI held by an interrupt shadow opens an NMI window, with IF
	 * clear too (B4: not V_IRQ, which waits for IF=1). */
	assert_int_equal(vlapic_next_event(l, true, false, &vec),
			 VLAPIC_INJ_NMI_WINDOW);
	assert_int_equal(vlapic_next_event(l, true, false, &vec),
			 VLAPIC_INJ_NMI_WINDOW);
	/* ... and by an event being injected. */
	assert_int_equal(vlapic_next_event(l, false, true, &vec),
			 VLAPIC_INJ_NMI_WINDOW);
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_NMI);
}

/* C1: a vector held back by TPR alone asks for the CR8-write exit; one
 * held by the class in service does not (its EOI exits anyway), nor one
 * that can be delivered, nor a software-disabled APIC's. */
static void test_tpr_holds(void **s)
{
	struct vlapic *l = &cpu[0];
	u8 vec = 0;

	(void)s;
	vlapic_set_irr(l, 0x51, false);
	w(l, 0x80, 0x50); /* TPR class 5 holds 0x51 */
	assert_true(vlapic_tpr_holds(l));
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_TPR);
	w(l, 0x80, 0x40); /* lowered: delivered */
	assert_false(vlapic_tpr_holds(l));
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_INTR);
	assert_int_equal(vec, 0x51);
	/* 0x52 under 0x51 in service: ISR holds it, not TPR. */
	vlapic_set_irr(l, 0x52, false);
	w(l, 0x80, 0x00);
	assert_false(vlapic_tpr_holds(l));
	assert_int_equal(vlapic_next_event(l, false, false, &vec), 0);
	w(l, 0x80, 0x60); /* both ISR and TPR: still ISR's (EOI exits) */
	assert_false(vlapic_tpr_holds(l));
	w(l, 0xb0, 0); /* EOI 0x51: now TPR alone holds 0x52 */
	assert_true(vlapic_tpr_holds(l));
	w(l, 0xf0, 0xff); /* software-disabled: nothing is delivered */
	assert_false(vlapic_tpr_holds(l));
}

static u32 pend(struct vlapic *l)
{
	return l->pending;
}

/* Every way an event reaches a vLAPIC sets its summary bit: a fixed IPI,
 * a self IPI, the timer, NMI, INIT and SIPI; nothing else sets one. */
static void test_summary_set_by_every_poster(void **s)
{
	struct vlapic *t = &cpu[1];

	(void)s;
	for (u32 i = 0; i < N; i++)
		assert_int_equal(pend(&cpu[i]), 0);
	for (u32 i = 0; i < N; i++)
		to_x2(&cpu[i]);
	/* A fixed IPI sets the target's bit only. */
	assert_int_equal(vlapic_msr_write(&cpu[0], 0x830, (1ull << 32) | 0x50),
			 0);
	assert_int_equal(pend(t), VLAPIC_PEND_IRR);
	assert_int_equal(pend(&cpu[0]) | pend(&cpu[2]) | pend(&cpu[3]), 0);
	/* SELF_IPI (MSR 0x83f). */
	assert_int_equal(vlapic_msr_write(&cpu[2], 0x83f, 0x51), 0);
	assert_int_equal(pend(&cpu[2]), VLAPIC_PEND_IRR);
	/* The timer (the owner's poll). */
	w(&cpu[3], 0x320, 0x52);
	vlapic_timer_write_init(&cpu[3], 10, 0);
	assert_true(vlapic_timer_poll(&cpu[3], 1000000));
	assert_int_equal(pend(&cpu[3]), VLAPIC_PEND_IRR);
	/* NMI, INIT, SIPI. */
	t = &cpu[0];
	assert_int_equal(vlapic_msr_write(&cpu[1], 0x830, 4u << 8), 0);
	assert_int_equal(pend(t), VLAPIC_PEND_NMI);
	assert_int_equal(vlapic_msr_write(&cpu[1], 0x830, (5u << 8) | BIT(14)),
			 0);
	assert_int_equal(pend(t), VLAPIC_PEND_NMI | VLAPIC_PEND_START);
	t->pending = 0;
	assert_int_equal(vlapic_msr_write(&cpu[1], 0x830, (6u << 8) | 0x9a), 0);
	assert_int_equal(pend(t), VLAPIC_PEND_START);
	assert_true(vlapic_startup_maybe(t));
}

/* The IRR bit is cleared only when IRR is empty: a vector held back by
 * PPR or IF keeps it, an acknowledged last vector lets it go, and a stale
 * bit over an empty IRR goes at the next look. */
static void test_summary_irr_cleared_when_empty(void **s)
{
	struct vlapic *l = &cpu[0];
	u8 vec = 0;

	(void)s;
	assert_false(vlapic_irr_maybe(l));
	vlapic_set_irr(l, 0x40, false);
	assert_true(vlapic_event_maybe(l));
	vlapic_set_irr(l, 0x90, false);
	w(l, 0x80, 0xf0); /* TPR blocks both: exit on a CR8 write */
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_TPR);
	assert_true(vlapic_irr_maybe(l));
	assert_int_equal(pend(l), VLAPIC_PEND_IRR);
	w(l, 0x80, 0);
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_INTR);
	assert_int_equal(vec, 0x90);
	/* 0x40 is left (under 0x90's class in service): still pending. */
	assert_int_equal(vlapic_next_event(l, false, false, &vec), 0);
	assert_int_equal(pend(l), VLAPIC_PEND_IRR);
	w(l, 0xb0, 0); /* EOI 0x90 */
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_INTR);
	assert_int_equal(vec, 0x40);
	/* IRR empty now: the next look clears the bit, and stays quiet. */
	assert_int_equal(vlapic_next_event(l, false, false, &vec), 0);
	assert_int_equal(pend(l), 0);
	assert_false(vlapic_irr_maybe(l));
	assert_false(vlapic_event_maybe(l));
	/* A stale bit (IRR emptied by INIT) is dropped the same way. */
	vlapic_set_irr(l, 0x41, false);
	vlapic_init_reset(l);
	assert_int_equal(pend(l), VLAPIC_PEND_IRR);
	assert_false(vlapic_irr_maybe(l));
	assert_int_equal(pend(l), 0);
}

/* The last pending vector acknowledged: the IRR bit of the summary goes
 * at once, so the next entry (the handler's EOI exit) has nothing to do;
 * with another vector left it stays. */
static void test_summary_irr_dropped_at_last_ack(void **s)
{
	struct vlapic *l = &cpu[0];
	u8 vec = 0;

	(void)s;
	vlapic_set_irr(l, 0x50, false);
	vlapic_set_irr(l, 0xc1, false);
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_INTR);
	assert_int_equal(vec, 0xc1);
	assert_int_equal(pend(l), VLAPIC_PEND_IRR); /* 0x50 is left */
	w(l, 0xb0, 0);
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_INTR);
	assert_int_equal(vec, 0x50);
	assert_int_equal(pend(l), 0);
	assert_false(vlapic_event_maybe(l));
}

/* In-service vectors across ISR words (2, 5 and 7): PPR follows the
 * highest, EOIs clear them highest first, an EOI with nothing in service
 * and after INIT does nothing. */
static void test_isr_words(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	vlapic_ack(l, 0x41);
	vlapic_ack(l, 0xb0);
	vlapic_ack(l, 0x40);
	vlapic_ack(l, 0xe3);
	assert_int_equal(vlapic_ppr(l), 0xe0);
	w(l, 0xb0, 0);
	assert_int_equal(l->isr[7], 0);
	assert_int_equal(vlapic_ppr(l), 0xb0);
	w(l, 0xb0, 0);
	assert_int_equal(l->isr[5], 0);
	assert_int_equal(vlapic_ppr(l), 0x40);
	w(l, 0xb0, 0);
	assert_int_equal(l->isr[2], BIT(0));
	assert_int_equal(vlapic_ppr(l), 0x40);
	w(l, 0xb0, 0);
	assert_int_equal(l->isr[2], 0);
	assert_int_equal(vlapic_ppr(l), 0);
	assert_int_equal(l->spare_eois, 0);
	w(l, 0xb0, 0); /* nothing in service: counted */
	assert_int_equal(vlapic_ppr(l), 0);
	assert_int_equal(l->spare_eois, 1);
	vlapic_ack(l, 0x90);
	vlapic_init_reset(l);
	assert_int_equal(vlapic_ppr(l), 0);
	vlapic_ack(l, 0x30);
	assert_int_equal(vlapic_ppr(l), 0x30);
}

/* x2APIC EOI by its own entry point: #GP (-EINVAL) outside x2APIC mode
 * and for a nonzero value, else the EOI, the pending summary untouched. */
static void test_x2apic_eoi(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	vlapic_ack(l, 0x60);
	assert_int_equal(vlapic_x2apic_eoi(l, 0), -EINVAL); /* xAPIC mode */
	to_x2(l);
	assert_int_equal(vlapic_x2apic_eoi(l, 1), -EINVAL);
	assert_int_equal(vlapic_x2apic_eoi(l, 1ull << 32), -EINVAL);
	assert_int_equal(l->isr[3], BIT(0));
	assert_int_equal(vlapic_x2apic_eoi(l, 0), 0);
	assert_int_equal(l->isr[3], 0);
	assert_int_equal(pend(l), 0);
}

/* NMI: the bit goes when the NMI is taken, not while it is held by an NMI
 * in service or a shadow; INIT/SIPI: when vlapic_take_startup() looks. */
static void test_summary_nmi_and_startup(void **s)
{
	struct vlapic *l = &cpu[0];
	u8 vec = 0;

	(void)s;
	assert_false(vlapic_event_maybe(l));
	assert_false(vlapic_before_run_maybe(l));
	vlapic_deliver(l, APIC_DM_NMI, 0, false);
	assert_true(vlapic_event_maybe(l));
	assert_false(vlapic_before_run_maybe(l));
	assert_int_equal(vlapic_next_event(l, true, false, &vec),
			 VLAPIC_INJ_NMI_WINDOW); /* shadow: held */
	assert_int_equal(pend(l), VLAPIC_PEND_NMI);
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_NMI);
	assert_int_equal(pend(l), 0);
	/* A second one while the first is in service: held, bit kept. */
	vlapic_deliver(l, APIC_DM_NMI, 0, false);
	assert_int_equal(vlapic_next_event(l, false, false, &vec), 0);
	assert_int_equal(pend(l), VLAPIC_PEND_NMI);
	l->c.nmi_masked = false; /* IRET retired */
	assert_int_equal(vlapic_next_event(l, false, false, &vec),
			 VLAPIC_INJ_NMI);
	assert_int_equal(pend(l), 0);
	/* INIT, then SIPI: each look clears the bit, takes the event. */
	assert_false(vlapic_event_maybe(l));
	vlapic_deliver(l, APIC_DM_INIT, 0, false);
	assert_true(vlapic_startup_maybe(l));
	assert_true(vlapic_before_run_maybe(l));
	assert_false(vlapic_event_maybe(l));
	assert_int_equal(vlapic_take_startup(l), -ENOENT);
	assert_false(vlapic_startup_maybe(l));
	assert_true(l->wait_sipi);
	assert_true(vlapic_before_run_maybe(l)); /* waiting for SIPI */
	vlapic_deliver(l, APIC_DM_SIPI, 0x9a, false);
	assert_true(vlapic_startup_maybe(l));
	assert_int_equal(vlapic_take_startup(l), 0x9a);
	assert_false(vlapic_startup_maybe(l));
	assert_false(vlapic_before_run_maybe(l));
	/* Nothing posted: the next entry injects nothing. */
	assert_int_equal(vlapic_next_event(l, false, false, &vec), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_priority, setup),
		cmocka_unit_test_setup(test_eoi_order, setup),
		cmocka_unit_test_setup(test_tpr_ppr, setup),
		cmocka_unit_test_setup(test_xapic_destinations, setup),
		cmocka_unit_test_setup(test_x2apic_destinations, setup),
		cmocka_unit_test_setup(test_moved_xapic_id_still_matches,
				       setup),
		cmocka_unit_test_setup(test_nmi_init_sipi, setup),
		cmocka_unit_test_setup(test_injection, setup),
		cmocka_unit_test_setup(test_tpr_holds, setup),
		cmocka_unit_test_setup(test_summary_set_by_every_poster, setup),
		cmocka_unit_test_setup(test_summary_irr_cleared_when_empty,
				       setup),
		cmocka_unit_test_setup(test_summary_nmi_and_startup, setup),
		cmocka_unit_test_setup(test_summary_irr_dropped_at_last_ack,
				       setup),
		cmocka_unit_test_setup(test_isr_words, setup),
		cmocka_unit_test_setup(test_x2apic_eoi, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
