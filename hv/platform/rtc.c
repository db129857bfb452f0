// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/rtc.c - the MC146818 real-time clock and CMOS at 0x70/0x71.
 * The time is derived from the TSC (no host timer): it starts at
 * 2026-01-01 00:00:00 when the guest is created. Registers A (UIP), B,
 * C (flags, clear on read), D (VRT), the alarm, and IRQ 8 for the
 * update-ended and alarm interrupts (raised by platform_poll(); no
 * periodic interrupt); the CMOS RAM reads 0. */
#include "arch/cpu.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

/* MC146818 datasheet, "Address map" and registers A-D. */
#define REG_SEC 0
#define REG_SEC_ALARM 1
#define REG_MIN 2
#define REG_MIN_ALARM 3
#define REG_HOUR 4
#define REG_HOUR_ALARM 5
#define REG_DOW 6
#define REG_DAY 7
#define REG_MONTH 8
#define REG_YEAR 9
#define REG_A 10
#define REG_B 11
#define REG_C 12
#define REG_D 13
#define REG_CENTURY 0x32 /* PC CMOS convention (the FADT leaves it 0) */

#define A_UIP 0x80
#define B_UIE 0x10
#define B_AIE 0x20
#define B_DM_BINARY 0x04
#define B_24H 0x02
#define C_IRQF 0x80
#define C_AF 0x20
#define C_UF 0x10
#define D_VRT 0x80
#define ALARM_ANY 0xc0 /* bits 7:6 set: "don't care" */

/* 2026-01-01 00:00:00, a Thursday, in days since 2000-01-01 (a Saturday). */
#define START_DAYS 9497u
#define DAY_SECS 86400u
/* UIP is set 244 us (8 cycles of 32.768 kHz) before each update. */
#define UIP_NS 244141u

struct rtc_time {
	u8 sec, min, hour, dow, day, month, year;
};

/* RTC seconds since 2000-01-01 at t (TSC cycles since the origin). */
static u64 rtc_sec(u64 t, u64 tsc_khz)
{
	return (u64)START_DAYS * DAY_SECS + t / (tsc_khz * 1000);
}

static void civil(u64 secs, struct rtc_time *tm)
{
	static const u8 mdays[12] = { 31, 28, 31, 30, 31, 30,
				      31, 31, 30, 31, 30, 31 };
	u32 days = (u32)(secs / DAY_SECS), s = (u32)(secs % DAY_SECS);
	u32 y = 0, m = 0;

	tm->sec = s % 60;
	tm->min = s / 60 % 60;
	tm->hour = (u8)(s / 3600);
	tm->dow = (days + 6) % 7 + 1; /* 1 = Sunday; day 0 is Saturday */
	/* 2000-2099: every fourth year is a leap year. */
	while (days >= (y % 4 ? 365u : 366u))
		days -= y++ % 4 ? 365 : 366;
	for (;; m++) {
		u32 n = mdays[m] + (m == 1 && y % 4 == 0);

		if (days < n)
			break;
		days -= n;
	}
	tm->day = (u8)(days + 1);
	tm->month = (u8)(m + 1);
	tm->year = (u8)(y % 100);
}

/* A value in register B's format: BCD unless DM (bit 2) says binary. */
static u8 enc(const struct rtc_cmos *r, u8 bin)
{
	return (r->b & B_DM_BINARY) ? bin : (u8)((bin / 10) << 4 | bin % 10);
}

/* Hours: 24-hour, or 1-12 with bit 7 for PM (register B bit 1 clear). */
static u8 enc_hour(const struct rtc_cmos *r, u8 h)
{
	if (r->b & B_24H)
		return enc(r, h);
	return enc(r, h % 12 ? h % 12 : 12) | (h >= 12 ? 0x80 : 0);
}

static bool alarm_match(const struct rtc_cmos *r, u64 secs)
{
	u32 s = (u32)(secs % DAY_SECS);
	u8 now[3] = { enc(r, s % 60), enc(r, s / 60 % 60),
		      enc_hour(r, (u8)(s / 3600)) };

	for (int i = 0; i < 3; i++)
		if ((r->alarm[i] & ALARM_ANY) != ALARM_ANY &&
		    r->alarm[i] != now[i])
			return false;
	return true;
}

/* The first second in (from, to] whose update matches the alarm; 0: none.
 * A day covers every time the alarm registers can name. */
static u64 first_alarm(const struct rtc_cmos *r, u64 from, u64 to)
{
	if (to - from > DAY_SECS)
		to = from + DAY_SECS;
	for (u64 s = from + 1; s <= to; s++)
		if (alarm_match(r, s))
			return s;
	return 0;
}

u64 rtc_next_alarm(const struct rtc_cmos *r, u64 t, u64 tsc_khz)
{
	u64 now, s;

	if (!tsc_khz || !(r->b & B_AIE))
		return 0;
	now = rtc_sec(t, tsc_khz);
	s = first_alarm(r, now, now + DAY_SECS);
	return s ? (s - (u64)START_DAYS * DAY_SECS) * tsc_khz * 1000 : 0;
}

bool rtc_irq(const struct rtc_cmos *r, u64 t, u64 tsc_khz, u64 *next)
{
	u64 hz = tsc_khz * 1000, s, c;

	*next = 0;
	if (!tsc_khz || !(r->b & (B_UIE | B_AIE)))
		return false;
	s = rtc_sec(t, tsc_khz);
	c = r->c_sec ? r->c_sec : rtc_sec(0, tsc_khz);
	/* Pending until register C is read (rtc_in() asks for a poll). */
	if (((r->b & B_UIE) && s > c) ||
	    ((r->b & B_AIE) && first_alarm(r, c, s)))
		return true;
	if (r->b & B_UIE)
		*next = (t / hz + 1) * hz;
	else
		*next = rtc_next_alarm(r, t, tsc_khz);
	return false;
}

/* Register A: UIP for the last 244 us of each second (MC146818 "update
 * cycle"; as QEMU's model). A guest polling more slowly than that (each
 * read is an exit) would miss it: a read in the second after the previous
 * read that saw no UIP for this update still sees it set, once. */
static u8 reg_a(struct rtc_cmos *r, u64 t, u64 tsc_khz)
{
	u64 hz = tsc_khz * 1000, s = rtc_sec(t, tsc_khz);
	bool uip = t % hz >= hz - tsc_khz * UIP_NS / 1000000;

	if (uip) {
		r->uip_sec = s + 1;
	} else if (r->a_sec + 1 == s && r->uip_sec != s) {
		r->uip_sec = s;
		uip = true;
	}
	r->a_sec = s;
	return (r->a & 0x7f) | (uip ? A_UIP : 0);
}

/* Register C: the flags of the updates (UF) and alarms (AF) since the
 * last read, IRQF when an enabled one is among them; reading clears. */
static u8 reg_c(struct rtc_cmos *r, u64 t, u64 tsc_khz)
{
	u64 s = rtc_sec(t, tsc_khz);
	u8 c = 0;

	if (s > r->c_sec) {
		c |= C_UF;
		if (first_alarm(r, r->c_sec, s))
			c |= C_AF;
	}
	if (((c & C_AF) && (r->b & B_AIE)) || ((c & C_UF) && (r->b & B_UIE)))
		c |= C_IRQF;
	r->c_sec = s;
	return c;
}

u8 rtc_read(struct rtc_cmos *r, u8 reg, u64 t, u64 tsc_khz)
{
	struct rtc_time tm;

	if (!tsc_khz)
		return 0;
	if (!r->c_sec) /* nothing happened before the first read */
		r->c_sec = rtc_sec(0, tsc_khz);
	civil(rtc_sec(t, tsc_khz), &tm);
	switch (reg) {
	case REG_SEC:
		return enc(r, tm.sec);
	case REG_MIN:
		return enc(r, tm.min);
	case REG_HOUR:
		return enc_hour(r, tm.hour);
	case REG_SEC_ALARM:
	case REG_MIN_ALARM:
	case REG_HOUR_ALARM:
		return r->alarm[reg / 2];
	case REG_DOW:
		return enc(r, tm.dow);
	case REG_DAY:
		return enc(r, tm.day);
	case REG_MONTH:
		return enc(r, tm.month);
	case REG_YEAR:
		return enc(r, tm.year);
	case REG_A:
		return reg_a(r, t, tsc_khz);
	case REG_B:
		return r->b;
	case REG_C:
		return reg_c(r, t, tsc_khz);
	case REG_D:
		return D_VRT; /* the battery is fine */
	case REG_CENTURY:
		return enc(r, 20);
	default:
		return 0; /* CMOS RAM: nothing stored */
	}
}

/* Writes to the time registers and the CMOS RAM are dropped: the time
 * is the TSC's. UIP (A bit 7) is read-only. */
void rtc_write(struct rtc_cmos *r, u8 reg, u8 val)
{
	if (reg == REG_SEC_ALARM || reg == REG_MIN_ALARM ||
	    reg == REG_HOUR_ALARM)
		r->alarm[reg / 2] = val;
	else if (reg == REG_A)
		r->a = val & 0x7f;
	else if (reg == REG_B)
		r->b = val;
}

u32 rtc_in(struct vcpu *v, u16 port, unsigned size)
{
	struct platform *p = vcpu_platform(v);
	u8 val;

	(void)size;
	if (port == 0)
		return 0xff; /* the index register is write-only */
	spin_lock(&p->lock);
	val = rtc_read(&p->rtc, p->rtc.index, rdtsc() - p->pm_tsc0, p->tsc_khz);
	if (p->rtc.index == REG_C) { /* IRQ 8 goes with the flags read */
		platform_set_irq(p, RTC_IRQ, false);
		platform_poll_soon(p);
	}
	spin_unlock(&p->lock);
	return val;
}

void rtc_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);
	struct rtc_cmos *r = &p->rtc;

	(void)size;
	spin_lock(&p->lock);
	if (port == 0) {
		r->index = val & 0x7f; /* bit 7 masks NMIs: none to mask */
	} else {
		rtc_write(r, r->index, (u8)val);
		platform_poll_soon(p); /* B or the alarm may have changed */
	}
	spin_unlock(&p->lock);
}
