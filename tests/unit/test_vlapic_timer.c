// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_timer.c - the virtual local APIC's timer
 * (hv/vlapic/vlapic_timer.c) on the vLAPIC bus rig (vlapic_bus_fixture.h):
 * a masked LVT, the periodic floor, TSC-deadline in the past and taken at
 * its write, the host time base under guest TSC writes, and which register
 * writes need the time first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/vlapic/vlapic.h"
#include "tests/unit/vlapic_bus_fixture.h"

static void test_masked_lvt(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	w(l, 0x3e0, 0xb); /* divide by 1 */
	w(l, 0x320, BIT(16) | 0x40); /* one-shot, masked */
	vlapic_timer_write_init(l, 1000, 100);
	assert_true(l->timer_next > 100);
	assert_false(vlapic_timer_poll(l, 100));
	assert_false(vlapic_timer_poll(l, 1000000)); /* expired, masked */
	assert_false(irr(l, 0x40));
	assert_int_equal(l->timer_next, 0); /* one-shot: done */
	w(l, 0x320, 0x40); /* unmasked */
	vlapic_timer_write_init(l, 1000, 0);
	/* 1000 ticks at 1 GHz = 1 us = 2000 TSC cycles at 2 GHz. */
	assert_int_equal(l->timer_next, 2000);
	assert_int_equal(vlapic_timer_current(l, 1000), 500);
	assert_false(vlapic_timer_poll(l, 1999));
	assert_true(vlapic_timer_poll(l, 2000));
	assert_true(irr(l, 0x40));
	assert_int_equal(vlapic_timer_current(l, 3000), 0);
}

static void test_periodic_floor(void **s)
{
	struct vlapic *l = &cpu[0];
	u64 floor = vlapic_ticks_to_tsc(l, VLAPIC_MIN_PERIOD_US * 1000ULL);

	(void)s;
	w(l, 0x3e0, 0xb);
	w(l, 0x320, BIT(17) | 0x40); /* periodic */
	vlapic_timer_write_init(l, 1, 0); /* a 1-tick period */
	assert_int_equal(l->timer_period, floor);
	assert_true(vlapic_timer_poll(l, floor * 10 + 1));
	/* The missed periods coalesce into one interrupt. */
	assert_int_equal(l->timer_next, floor * 11);
	assert_int_equal(l->fired, 1);
}

static void test_tsc_deadline_past(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	vlapic_tsc_deadline_write(l, 5); /* not TSC-deadline mode: dropped */
	assert_int_equal(vlapic_tsc_deadline_read(l), 0);
	w(l, 0x320, BIT(18) | 0x41);
	vlapic_tsc_deadline_write(l, 5);
	assert_int_equal(vlapic_tsc_deadline_read(l), 5);
	assert_true(vlapic_timer_poll(l, 1000)); /* long past: fires now */
	assert_true(irr(l, 0x41));
	assert_int_equal(vlapic_tsc_deadline_read(l), 0); /* cleared */
	assert_false(vlapic_timer_poll(l, 2000));
	/* Leaving TSC-deadline mode disarms it. */
	vlapic_tsc_deadline_write(l, 5000);
	w(l, 0x320, 0x41);
	assert_int_equal(l->timer_next, 0);
}

/* A deadline the guest TSC passed, taken at its write: straight into
 * service only when nothing could come first; otherwise nothing changes
 * (the general path: the poll at entry, IRR). */
static void test_tsc_deadline_fire_now(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	w(l, 0x320, BIT(18) | 0x41); /* TSC-deadline mode */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 0, 1000), -1);
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 1001, 1000), -1);
	w(l, 0x320, BIT(18) | BIT(16) | 0x41); /* masked */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	w(l, 0x320, BIT(18) | 0x41);
	vlapic_tsc_deadline_write(l, 3000); /* one armed already */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	assert_int_equal(vlapic_tsc_deadline_read(l), 3000);
	vlapic_tsc_deadline_write(l, 0);
	vlapic_set_irr(l, 0x30, false); /* posted: the entry decides */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	assert_true(vlapic_irr_maybe(l));
	vlapic_ack(l, 0x30);
	assert_false(vlapic_irr_maybe(l)); /* the summary cleared */
	/* 0x30 in service (class 3 < 4): 0x41 still gets through; its
	 * level TMR bit from before clears (an edge interrupt). */
	l->tmr[0x41 >> 5] |= 1u << (0x41 & 31);
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 1000, 1000), 0x41);
	assert_true(l->isr[0x41 >> 5] & (1u << (0x41 & 31)));
	assert_false(irr(l, 0x41));
	assert_int_equal(l->tmr[0x41 >> 5], 0);
	assert_int_equal(l->fired, 1);
	assert_int_equal(vlapic_tsc_deadline_read(l), 0);
	/* 0x41 in service: the same class is held (PPR 0x40). */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	vlapic_eoi(l);
	vlapic_eoi(l);
	l->tpr = 0x40; /* TPR holds class 4 */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	l->tpr = 0;
	w(l, 0xf0, 0xff); /* software-disabled */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	w(l, 0xf0, 0x1ff);
	/* Disabling masked every LVT (SDM 11.4.7.2): unmasked again. */
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), -1);
	w(l, 0x320, BIT(18) | 0x41);
	assert_int_equal(vlapic_tsc_deadline_fire_now(l, 5, 1000), 0x41);
	assert_int_equal(l->fired, 2);
}

/* One-shot and periodic timers count the bus clock on the host's time
 * base: a guest TSC write (a new tsc_offset) does not move them. Only
 * TSC-deadline mode follows the guest TSC (issue 24, 5). */
static void test_timer_ignores_guest_tsc_write(void **s)
{
	struct vlapic *l = &cpu[0];
	u64 period;

	(void)s;
	w(l, 0x3e0, 0xb); /* divide by 1 */
	w(l, 0x320, 0x40); /* one-shot */
	l->tsc_offset = 0;
	vlapic_timer_write_init(l, 1000000, 5000); /* 1 ms at 1 GHz */
	period = vlapic_ticks_to_tsc(l, 1000000);
	assert_int_equal(vlapic_timer_expiry(l), 5000 + period);
	/* The guest sets its TSC back to 0, or far ahead. */
	l->tsc_offset = (u64)-5000;
	assert_int_equal(vlapic_timer_expiry(l), 5000 + period);
	assert_false(vlapic_timer_poll(l, 5000 + period - 1));
	l->tsc_offset = 1ULL << 62;
	assert_false(vlapic_timer_poll(l, 5000 + period - 1));
	assert_true(vlapic_timer_poll(l, 5000 + period));
	assert_int_equal(l->fired, 1);
	/* TSC-deadline mode: the deadline is guest TSC. */
	w(l, 0x320, BIT(18) | 0x41);
	l->tsc_offset = 1000;
	vlapic_tsc_deadline_write(l, 9000); /* guest 9000 = host 8000 */
	assert_int_equal(vlapic_timer_expiry(l), 8000);
	assert_false(vlapic_timer_poll(l, 7999));
	l->tsc_offset = 2000; /* the guest TSC jumps ahead: due sooner */
	assert_int_equal(vlapic_timer_expiry(l), 7000);
	assert_true(vlapic_timer_poll(l, 7000));
	assert_true(irr(l, 0x41));
	/* A deadline the guest TSC passed already is due at once. */
	vlapic_tsc_deadline_write(l, 10);
	l->tsc_offset = 1ULL << 40;
	assert_int_equal(vlapic_timer_expiry(l), 1);
}

/* Which writes need the time first: the initial count always, the timer
 * LVT and divide configuration while the timer runs, nothing else. */
static void test_write_needs_time(void **s)
{
	struct vlapic *l = &cpu[0];

	(void)s;
	assert_true(vlapic_write_needs_time(l, 0x380));
	assert_false(vlapic_write_needs_time(l, 0x320));
	assert_false(vlapic_write_needs_time(l, 0x3e0));
	assert_false(vlapic_write_needs_time(l, 0xb0));
	w(l, 0x320, 0x40);
	vlapic_timer_write_init(l, 1000, 0);
	assert_true(l->timer_next != 0);
	assert_true(vlapic_write_needs_time(l, 0x320));
	assert_true(vlapic_write_needs_time(l, 0x3e0));
	assert_false(vlapic_write_needs_time(l, 0xb0)); /* EOI */
	assert_false(vlapic_write_needs_time(l, 0x80)); /* TPR */
	assert_false(vlapic_write_needs_time(l, 0x300)); /* ICR */
	assert_false(vlapic_write_needs_time(l, 0x330)); /* another LVT */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_masked_lvt, setup),
		cmocka_unit_test_setup(test_periodic_floor, setup),
		cmocka_unit_test_setup(test_tsc_deadline_past, setup),
		cmocka_unit_test_setup(test_tsc_deadline_fire_now, setup),
		cmocka_unit_test_setup(test_timer_ignores_guest_tsc_write,
				       setup),
		cmocka_unit_test_setup(test_write_needs_time, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
