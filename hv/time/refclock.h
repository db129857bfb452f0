/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/time/refclock.h - a reference clock the TSC is measured against: a
 * free-running counter of known frequency and width (the HPET, the ACPI PM
 * timer, PIT channel 2), read through one function. */
#ifndef MINHV_HV_TIME_REFCLOCK_H
#define MINHV_HV_TIME_REFCLOCK_H

#include "arch/types.h"

struct refclock {
	const char *name; /* "HPET", "PM timer", "PIT" */
	u64 hz; /* counts per second */
	u32 mask; /* counter width: 0xffff, 0xffffff, 0xffffffff */
	bool down; /* counts down (the PIT) */
	u32 (*read)(const struct refclock *r);
	u64 addr; /* I/O port or MMIO base, for read() */
	u32 saved; /* what start() changed, for stop() */
	void (*stop)(struct refclock *r); /* undo start(); may be NULL */
};

/* Counts from a to b (a read before b), modulo the counter width. */
static inline u64 refclock_delta(const struct refclock *r, u32 a, u32 b)
{
	return (r->down ? a - b : b - a) & r->mask;
}

/* The three PC references; each returns false when absent (nothing set
 * up). Whether a present one counts is for the calibration to find out. */
/* PIT channel 2 in mode 2 (rate generator), gate on through port 61h. */
bool refclock_pit_start(struct refclock *r);
/* ACPI PM timer at an I/O port (FADT PM_TMR_BLK), 24 or 32 bits. */
bool refclock_pm_start(struct refclock *r, u16 port, bool bits32);
/* HPET main counter at MMIO base (ACPI HPET table); started if the
 * firmware left it stopped (stop() restores that). */
bool refclock_hpet_start(struct refclock *r, u64 base);

#endif
