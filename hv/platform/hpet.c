// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/hpet.c - an HPET at 0xFED00000 (IA-PC HPET specification
 * 1.0a), described by the ACPI HPET table: the 64-bit main counter at
 * 100 MHz from the host TSC, its enable bit, and three timers whose
 * configuration and comparators read back but which can route to no IRQ
 * and never interrupt (no legacy replacement either). Why Linux needs
 * one: without it, its clocksource watchdog is jiffies until the PM timer
 * registers, jiffies lag when timer ticks come late (as they do when
 * minhv runs nested under TCG), and the watchdog then marks the TSC
 * unstable. With an HPET counter the watchdog is that; Linux's early tick
 * stays on the PIT (no legacy replacement route). */
#include "arch/cpu.h"
#include "arch/timers.h"
#include "hv/platform/platform.h"

#define CONF_RW (HPET_CONF_ENABLE) /* LEG_RT: not supported */
/* Tn_INT_TYPE, Tn_INT_ENB, Tn_TYPE, Tn_VAL_SET, Tn_32MODE, Tn_INT_ROUTE,
 * Tn_FSB_EN: kept, without effect (the route capability is empty). */
#define TN_CONF_RW 0x7f4eu

void hpet_reset(struct vhpet *h, u64 tsc_khz)
{
	*h = (struct vhpet){ .tsc_khz = tsc_khz };
}

static u64 counter(const struct vhpet *h, u64 now)
{
	if (!(h->config & HPET_CONF_ENABLE))
		return h->counter;
	return h->counter + clock_ticks(now - h->t0, h->tsc_khz, VHPET_HZ);
}

static u64 reg_read(const struct vhpet *h, u64 reg, u64 now)
{
	u32 n = (u32)(reg - HPET_REG_TN_CONF(0)) / 0x20;

	switch (reg) {
	case HPET_REG_CAP:
		return VHPET_CAP_LO | (u64)VHPET_PERIOD_FS
					      << HPET_CAP_PERIOD_SHIFT;
	case HPET_REG_CONFIG:
		return h->config;
	case HPET_REG_COUNTER:
		return counter(h, now);
	}
	if (reg < HPET_REG_TN_CONF(0) || n >= VHPET_TIMERS)
		return 0; /* the interrupt status and reserved registers */
	if (reg == HPET_REG_TN_CONF(n))
		return h->tn_conf[n] | HPET_TN_SIZE_CAP;
	if (reg == HPET_REG_TN_CMP(n))
		return h->tn_cmp[n];
	return 0;
}

static void reg_write(struct vhpet *h, u64 reg, u64 val, u64 now)
{
	u32 n = (u32)(reg - HPET_REG_TN_CONF(0)) / 0x20;

	if (reg == HPET_REG_CONFIG) {
		/* Halting keeps the count; starting counts on from it. */
		h->counter = counter(h, now);
		h->t0 = now;
		h->config = val & CONF_RW;
	} else if (reg == HPET_REG_COUNTER) {
		h->counter = val;
		h->t0 = now;
	} else if (reg >= HPET_REG_TN_CONF(0) && n < VHPET_TIMERS) {
		if (reg == HPET_REG_TN_CONF(n))
			h->tn_conf[n] = val & TN_CONF_RW;
		else if (reg == HPET_REG_TN_CMP(n))
			h->tn_cmp[n] = val;
	}
}

/* 32- and 64-bit accesses to 64-bit registers: a 32-bit one is the low
 * or high half (spec 2.3.1). */
static int mmio_read(void *dev, u64 off, unsigned size, u64 *val)
{
	struct vhpet *h = dev;
	u64 v;

	spin_lock(&h->lock);
	v = reg_read(h, off & ~7ULL, rdtsc());
	spin_unlock(&h->lock);
	*val = size == 8 ? v : (v >> (8 * (off & 4))) & 0xffffffffu;
	return 0;
}

static int mmio_write(void *dev, u64 off, unsigned size, u64 val)
{
	struct vhpet *h = dev;
	u64 reg = off & ~7ULL, now = rdtsc(), v;

	spin_lock(&h->lock);
	v = val;
	if (size != 8) { /* merge the half written with the other */
		unsigned sh = 8 * (off & 4);

		v = (reg_read(h, reg, now) & ~(0xffffffffULL << sh)) |
		    (val & 0xffffffffu) << sh;
	}
	reg_write(h, reg, v, now);
	spin_unlock(&h->lock);
	return 0;
}

const struct mmio_ops hpet_mmio_ops = { mmio_read, mmio_write };
