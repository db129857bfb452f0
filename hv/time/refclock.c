// SPDX-License-Identifier: GPL-2.0-only
/* hv/time/refclock.c - the PC's reference clocks as struct refclock: PIT
 * channel 2 read through its counter latch (82C54 data sheet, "Counter
 * Latch Command"), the ACPI PM timer (ACPI 6.5 4.8.3.3) and the HPET main
 * counter (IA-PC HPET 1.0a 2.3.4, 2.3.7). */
#include "hv/time/refclock.h"
#include "arch/cpu.h"
#include "arch/timers.h"

static u32 pit_read(const struct refclock *r)
{
	u8 lo, hi;

	(void)r;
	outb(PIT_PORT_CMD, PIT_CMD_CH2 | PIT_CMD_LATCH);
	lo = inb(PIT_PORT_CH2);
	hi = inb(PIT_PORT_CH2);
	return (u32)lo | (u32)hi << 8;
}

static void pit_stop(struct refclock *r)
{
	outb(PORT_61, (u8)(r->saved & PORT61_WRITABLE));
}

bool refclock_pit_start(struct refclock *r)
{
	u8 p61 = inb(PORT_61);

	*r = (struct refclock){ .name = "PIT",
				.hz = PIT_HZ,
				.mask = 0xffff,
				.down = true,
				.read = pit_read,
				.saved = p61,
				.stop = pit_stop };
	/* Gate on, speaker off; the status bits 7:4 are written as 0. */
	outb(PORT_61,
	     (u8)(((p61 & PORT61_WRITABLE) & ~PORT61_SPEAKER) | PORT61_GATE2));
	/* Mode 2 with count 0 (65536): counts down and reloads for ever. */
	outb(PIT_PORT_CMD, PIT_CMD_CH2 | PIT_CMD_LOHI | PIT_CMD_MODE2);
	outb(PIT_PORT_CH2, 0);
	outb(PIT_PORT_CH2, 0);
	return true;
}

static u32 pm_read(const struct refclock *r)
{
	return inl((u16)r->addr) & r->mask;
}

bool refclock_pm_start(struct refclock *r, u16 port, bool bits32)
{
	if (!port)
		return false;
	*r = (struct refclock){ .name = "PM timer",
				.hz = ACPI_PM_TIMER_HZ,
				.mask = bits32 ? 0xffffffffu : 0xffffffu,
				.read = pm_read,
				.addr = port };
	return true;
}

static u32 hpet_read(const struct refclock *r)
{
	return mmio_read32(hpa(r->addr + HPET_REG_COUNTER));
}

static void hpet_stop(struct refclock *r)
{
	mmio_write32(hpa(r->addr + HPET_REG_CONFIG), r->saved);
}

bool refclock_hpet_start(struct refclock *r, u64 base)
{
	u32 period, conf;

	if (!base)
		return false;
	period = mmio_read32(hpa(base + HPET_REG_CAP + 4));
	/* 2.3.4: a period of 0 or above 100 ns is not an HPET. */
	if (!period || period > HPET_PERIOD_MAX_FS)
		return false;
	conf = mmio_read32(hpa(base + HPET_REG_CONFIG));
	*r = (struct refclock){ .name = "HPET",
				.hz = 1000000000000000ULL / period,
				.mask = 0xffffffffu,
				.read = hpet_read,
				.addr = base,
				.saved = conf };
	if (!(conf & HPET_CONF_ENABLE)) {
		/* The timers' own interrupt enables stay as they are (and the
		 * I/O APIC pins are masked): only the counter runs. */
		mmio_write32(hpa(base + HPET_REG_CONFIG),
			     conf | HPET_CONF_ENABLE);
		r->stop = hpet_stop;
	}
	return true;
}
