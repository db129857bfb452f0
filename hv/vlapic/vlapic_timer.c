// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic_timer.c - the vLAPIC timer (SDM vol 3 11.5.4, APM
 * 16.4.1): one-shot and periodic modes count the APIC bus clock
 * (VLAPIC_BUS_KHZ) through the divide configuration, on the host's time
 * base (now: the host TSC), which a guest TSC write does not move;
 * TSC-deadline mode (11.5.4.1) fires when the guest TSC (now +
 * tsc_offset) reaches IA32_TSC_DEADLINE. The caller polls at exits and
 * arms a host timer for vlapic_timer_expiry(). */
#include "hv/vlapic/vlapic.h"

#define LVT_TIMER 0 /* l->lvt[] index of APIC_REG_LVT_TIMER */

static u32 timer_mode(const struct vlapic *l)
{
	return APIC_LVT_TIMER_MODE(l->lvt[LVT_TIMER]);
}

/* Divide configuration (SDM figure 11-10): bits 3,1:0 give 2^(n+1), with
 * 111b meaning 1. */
static u32 divisor(const struct vlapic *l)
{
	u32 n = ((l->timer_div & 8) >> 1) | (l->timer_div & 3);

	return n == 7 ? 1 : 2u << n;
}

/* a * b / c without 128-bit division (freestanding: no __udivti3). */
static u64 mul_div(u64 a, u64 b, u64 c)
{
	if (!b || a <= ~0ULL / b)
		return a * b / c;
	return (a / c) * b + (a % c) * b / c;
}

u64 vlapic_ticks_to_tsc(const struct vlapic *l, u64 ticks)
{
	u64 khz = l->cfg.tsc_khz ? l->cfg.tsc_khz : VLAPIC_BUS_KHZ;

	return mul_div(ticks, khz, VLAPIC_BUS_KHZ);
}

static u64 tsc_to_ticks(const struct vlapic *l, u64 tsc)
{
	u64 khz = l->cfg.tsc_khz ? l->cfg.tsc_khz : VLAPIC_BUS_KHZ;

	return mul_div(tsc, VLAPIC_BUS_KHZ, khz);
}

void vlapic_timer_write_init(struct vlapic *l, u32 count, u64 now)
{
	u64 period, min;

	l->timer_init = count;
	if (timer_mode(l) == APIC_TIMER_TSC_DEADLINE)
		return; /* TMICT is ignored in TSC-deadline mode */
	l->timer_next = 0;
	if (!count)
		return; /* 0 stops the timer */
	period = vlapic_ticks_to_tsc(l, (u64)count * divisor(l));
	if (!period)
		period = 1;
	min = vlapic_ticks_to_tsc(l, (u64)VLAPIC_MIN_PERIOD_US * 1000 *
					     (VLAPIC_BUS_KHZ / 1000000u));
	if (timer_mode(l) == APIC_TIMER_PERIODIC && period < min)
		period = min;
	l->timer_start = now;
	l->timer_period = period;
	l->timer_next = now + period;
}

u32 vlapic_timer_current(const struct vlapic *l, u64 now)
{
	u64 left;

	if (timer_mode(l) == APIC_TIMER_TSC_DEADLINE || !l->timer_next ||
	    !l->timer_period)
		return 0;
	if (now >= l->timer_next) {
		if (timer_mode(l) != APIC_TIMER_PERIODIC)
			return 0;
		/* Periodic and not polled yet: where it is in this period. */
		left = l->timer_period -
		       (now - l->timer_next) % l->timer_period;
	} else {
		left = l->timer_next - now;
	}
	left = tsc_to_ticks(l, left) / divisor(l);
	return left > l->timer_init ? l->timer_init : (u32)left;
}

void vlapic_timer_lvt_changed(struct vlapic *l, u32 old)
{
	u32 was = APIC_LVT_TIMER_MODE(old), now = timer_mode(l);

	/* Switching into or out of TSC-deadline mode disarms the timer
	 * (SDM 11.5.4.1); one-shot <-> periodic keeps counting. */
	if ((was == APIC_TIMER_TSC_DEADLINE) !=
	    (now == APIC_TIMER_TSC_DEADLINE)) {
		l->timer_next = 0;
		l->tsc_deadline = 0;
		l->timer_init = 0;
	}
}

u64 vlapic_tsc_deadline_read(const struct vlapic *l)
{
	if (timer_mode(l) != APIC_TIMER_TSC_DEADLINE)
		return 0;
	return l->tsc_deadline;
}

void vlapic_tsc_deadline_write(struct vlapic *l, u64 val)
{
	if (timer_mode(l) != APIC_TIMER_TSC_DEADLINE)
		return; /* other modes ignore the write (11.5.4.1) */
	l->tsc_deadline = val;
	/* 0 disarms; a value already past fires at the next poll. */
	l->timer_next = val;
}

u64 vlapic_timer_expiry(const struct vlapic *l)
{
	if (!l->timer_next || timer_mode(l) != APIC_TIMER_TSC_DEADLINE)
		return l->timer_next;
	/* A deadline the guest TSC passed already: due now. */
	return l->timer_next > l->tsc_offset ? l->timer_next - l->tsc_offset :
					       1;
}

bool vlapic_timer_poll(struct vlapic *l, u64 now)
{
	u32 lvt = l->lvt[LVT_TIMER];

	/* The deadline is a guest TSC value; the bus clock runs on now. */
	if (timer_mode(l) == APIC_TIMER_TSC_DEADLINE)
		now += l->tsc_offset;
	if (!l->timer_next || now < l->timer_next)
		return false;
	switch (timer_mode(l)) {
	case APIC_TIMER_PERIODIC:
		/* Missed periods coalesce: one interrupt, next one ahead. */
		l->timer_next += l->timer_period *
				 ((now - l->timer_next) / l->timer_period + 1);
		break;
	case APIC_TIMER_TSC_DEADLINE:
		l->tsc_deadline = 0; /* reads 0 once it fired */
		l->timer_next = 0;
		break;
	default:
		l->timer_next = 0;
		break;
	}
	if (lvt & APIC_LVT_MASKED)
		return false; /* counts, but raises nothing (11.5.1) */
	vlapic_set_irr(l, lvt & 0xff, false);
	l->fired++;
	return true;
}
