// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/pit.c - the 8254 programmable interval timer at 0x40-0x43
 * (Intel 82C54 data sheet) and port 0x61: channels 0 (IRQ 0) and 2 (gated
 * by port 0x61 bit 0, its output at bit 5), channel 1 counts for nobody.
 * Modes 0 (interrupt on terminal count), 2 (rate generator), 3 (square
 * wave) and 4 (software strobe); 1 and 5 count as 0 and 4 (no gate edge
 * triggers them here); binary counting only (BCD is ignored). Counter
 * latch, read-back with status, LSB/MSB/both access. The counters are
 * computed from the host TSC (1.193182 MHz), so a reader polling them
 * sees real time; channel 0's interrupts are raised by platform_poll(). */
#include "arch/cpu.h"
#include "arch/timers.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

#define RW_LATCH 0
#define RW_LSB 1
#define RW_MSB 2
#define RW_BOTH 3
/* Channel 0's interrupts never come faster than this (a guest's count of
 * 1 would be an interrupt storm): 50 us, KVM's limit for its PIT too. */
#define MIN_PERIOD_TICKS 60
#define NO_IRQ ~0ULL

/* a * b / c, exact: a = q * c + r gives q * b + r * b / c, and r * b
 * fits for every clock here (r < c, a TSC's Hz, times at most 1.2 MHz,
 * or its kHz times 100 000). No 128-bit division (no __udivti3). */
static u64 mul_div(u64 a, u64 b, u64 c, bool up)
{
	u64 q = a / c, r = a % c;

	return q * b + (r * b + (up ? c - 1 : 0)) / c;
}

u64 clock_ticks(u64 d, u64 tsc_khz, u32 hz)
{
	if (!tsc_khz)
		return 0;
	if (hz % 1000 == 0) /* the HPET's 100 MHz: per kHz of TSC */
		return mul_div(d, hz / 1000, tsc_khz, false);
	return mul_div(d, hz, tsc_khz * 1000, false);
}

u64 clock_tsc(u64 ticks, u64 tsc_khz, u32 hz)
{
	return mul_div(ticks, tsc_khz * 1000, hz, true);
}

static u64 period(const struct pit_channel *c)
{
	return c->reload ? c->reload : 0x10000;
}

static u8 mode_of(const struct pit_channel *c)
{
	/* 6 and 7 are 2 and 3 (82C54: bit 2 is don't-care there). */
	return c->mode > 5 ? c->mode - 4 : c->mode;
}

static u64 elapsed(const struct pit_channel *c, u64 now, u64 tsc_khz)
{
	if (!c->counting)
		return c->paused;
	return c->paused + clock_ticks(now - c->t0, tsc_khz, PIT_HZ);
}

/* The counter after n ticks: one-shot modes count down through 0 and
 * wrap; the periodic ones reload (mode 3 counts by two, each half). */
static u16 count_at(const struct pit_channel *c, u64 n)
{
	u64 p = period(c);

	switch (mode_of(c)) {
	case 2:
		return (u16)(p - n % p);
	case 3:
		return (u16)(p - (2 * n) % p);
	default:
		return (u16)(p - n);
	}
}

static bool out_at(const struct pit_channel *c, u64 n)
{
	u64 p = period(c);
	u8 m = mode_of(c);

	if (!c->counting && !c->paused)
		return m != 0 && m != 1; /* after the control word */
	switch (m) {
	case 2:
		return n % p != p - 1; /* low for the count of 1 */
	case 3:
		return n % p < (p + 1) / 2;
	case 4:
	case 5:
		return n != p; /* low for one tick at the terminal count */
	default:
		return n >= p; /* high from the terminal count on */
	}
}

/* Ticks after t0 of the first interrupt (OUT rising): the terminal count,
 * or the end of the first period. */
static u64 first_irq(const struct pit_channel *c)
{
	u64 p = period(c);

	return mode_of(c) >= 4 ? p + 1 : p;
}

static void load(struct pit_channel *c, u16 count, bool gate, u64 now)
{
	c->reload = count;
	c->null_count = false;
	c->counting = gate;
	c->paused = 0;
	c->t0 = now;
	c->next = first_irq(c);
}

static void latch(struct pit_channel *c, u64 now, u64 tsc_khz)
{
	if (c->latched)
		return; /* the first latch holds until it is read */
	c->latch = count_at(c, elapsed(c, now, tsc_khz));
	c->latched = true;
	c->lbyte = 0;
}

static void latch_status(struct pit_channel *c, u64 now, u64 tsc_khz)
{
	if (c->status_latched)
		return;
	c->status = (out_at(c, elapsed(c, now, tsc_khz)) ? PIT_STATUS_OUT : 0) |
		    (c->null_count ? PIT_STATUS_NULL_COUNT : 0) |
		    c->rw << PIT_CMD_RW_SHIFT | c->mode << PIT_CMD_MODE_SHIFT |
		    c->bcd;
	c->status_latched = true;
}

static bool gate(const struct pit8254 *t, u32 ch)
{
	return ch != 2 || (t->port61 & PORT61_GATE2);
}

static void command(struct pit8254 *t, u8 val, u64 now, u64 tsc_khz)
{
	u32 ch = val >> PIT_CMD_CH_SHIFT, rw = (val >> PIT_CMD_RW_SHIFT) & 3;
	struct pit_channel *c;

	if (ch == 3) { /* read-back (82C54 "Read-Back Command") */
		for (u32 i = 0; i < PIT_CHANNELS; i++) {
			if (!(val & PIT_RB_CH(i)))
				continue;
			if (!(val & PIT_RB_NO_COUNT))
				latch(&t->ch[i], now, tsc_khz);
			if (!(val & PIT_RB_NO_STATUS))
				latch_status(&t->ch[i], now, tsc_khz);
		}
		return;
	}
	c = &t->ch[ch];
	if (rw == RW_LATCH) {
		latch(c, now, tsc_khz);
		return;
	}
	/* A control word stops the channel until a count is written. */
	*c = (struct pit_channel){ .mode = (val >> PIT_CMD_MODE_SHIFT) & 7,
				   .rw = (u8)rw,
				   .bcd = val & PIT_CMD_BCD,
				   .null_count = true };
}

void pit_write(struct pit8254 *t, u16 off, u8 val, u64 now, u64 tsc_khz)
{
	struct pit_channel *c;

	if (off == 3) {
		command(t, val, now, tsc_khz);
		return;
	}
	c = &t->ch[off];
	switch (c->rw) {
	case RW_LSB:
		load(c, val, gate(t, off), now);
		break;
	case RW_MSB:
		load(c, (u16)(val << 8), gate(t, off), now);
		break;
	case RW_BOTH:
		if (!c->wbyte) {
			c->lsb = val;
			c->wbyte = 1;
			/* Mode 0 stops counting at the first byte. */
			if (mode_of(c) == 0)
				c->counting = false;
			break;
		}
		c->wbyte = 0;
		load(c, (u16)(c->lsb | val << 8), gate(t, off), now);
		break;
	default: /* no control word yet */
		break;
	}
}

u8 pit_read(struct pit8254 *t, u16 off, u64 now, u64 tsc_khz)
{
	struct pit_channel *c;
	u16 v;
	u8 *byte;

	if (off == 3)
		return 0xff; /* the control word register is write-only */
	c = &t->ch[off];
	if (c->status_latched) {
		c->status_latched = false;
		return c->status;
	}
	v = c->latched ? c->latch : count_at(c, elapsed(c, now, tsc_khz));
	byte = c->latched ? &c->lbyte : &c->rbyte;
	if (c->rw == RW_MSB || (c->rw == RW_BOTH && *byte)) {
		*byte = 0;
		c->latched = false;
		return (u8)(v >> 8);
	}
	if (c->rw == RW_BOTH)
		*byte = 1;
	else
		c->latched = false;
	return (u8)v;
}

u8 pit_port61_read(struct pit8254 *t, u64 now, u64 tsc_khz)
{
	const struct pit_channel *c = &t->ch[2];
	/* The refresh request toggles every 15.085 us: 18 PIT ticks. */
	u64 refresh = clock_ticks(now, tsc_khz, PIT_HZ) / 18;

	return (t->port61 & PORT61_WRITABLE) |
	       (refresh & 1 ? PORT61_REFRESH : 0) |
	       (out_at(c, elapsed(c, now, tsc_khz)) ? PORT61_OUT2 : 0);
}

void pit_port61_write(struct pit8254 *t, u8 val, u64 now, u64 tsc_khz)
{
	struct pit_channel *c = &t->ch[2];
	bool was = t->port61 & PORT61_GATE2, on = val & PORT61_GATE2;

	t->port61 = val & PORT61_WRITABLE;
	if (was == on || c->null_count || (!c->counting && !c->t0))
		return;
	if (!on) { /* gate low: the count holds */
		c->paused = elapsed(c, now, tsc_khz);
		c->counting = false;
		return;
	}
	/* Gate rising: modes 1, 2, 3 and 5 start over, 0 and 4 go on. */
	if (mode_of(c) != 0 && mode_of(c) != 4)
		c->paused = 0;
	c->counting = true;
	c->t0 = now;
}

bool pit_poll(struct pit8254 *t, u64 now, u64 tsc_khz, u64 *next)
{
	struct pit_channel *c = &t->ch[0];
	u64 n, p = period(c);
	bool irq = false;

	*next = 0;
	if (!c->counting || !c->next)
		return false;
	n = elapsed(c, now, tsc_khz);
	if (n >= c->next) {
		irq = true;
		if (mode_of(c) == 2 || mode_of(c) == 3) {
			if (p < MIN_PERIOD_TICKS)
				p = MIN_PERIOD_TICKS;
			c->next = (n / p + 1) * p;
		} else {
			c->next = 0; /* one-shot: once per count written */
			return true;
		}
	}
	*next = c->t0 + clock_tsc(c->next, tsc_khz, PIT_HZ);
	return irq;
}

u32 pit_in(struct vcpu *v, u16 port, unsigned size)
{
	struct platform *p = vcpu_platform(v);
	u8 val;

	(void)size;
	spin_lock(&p->lock);
	val = pit_read(&p->pit, port, rdtsc(), p->tsc_khz);
	spin_unlock(&p->lock);
	return val;
}

void pit_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);

	(void)size;
	spin_lock(&p->lock);
	pit_write(&p->pit, port, (u8)val, rdtsc(), p->tsc_khz);
	platform_poll_soon(p); /* channel 0 may have a new schedule */
	spin_unlock(&p->lock);
}

u32 port61_in(struct vcpu *v, u16 port, unsigned size)
{
	struct platform *p = vcpu_platform(v);

	(void)port;
	(void)size;
	return pit_port61_read(&p->pit, rdtsc(), p->tsc_khz);
}

void port61_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);

	(void)port;
	(void)size;
	spin_lock(&p->lock);
	pit_port61_write(&p->pit, (u8)val, rdtsc(), p->tsc_khz);
	spin_unlock(&p->lock);
}
