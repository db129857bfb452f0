/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/vlapic_bus_fixture.h - the rig of the pure vLAPIC suites
 * (test_vlapic_irq.c, test_vlapic_timer.c): four vLAPICs (hv/vlapic) on
 * one bus, x2APIC-capable, with TSC-deadline and a 2 GHz TSC, each
 * software-enabled, the bus counting the notifications of each target. The
 * short names are the ones the tests read. */
#ifndef MINHV_TESTS_UNIT_VLAPIC_BUS_FIXTURE_H
#define MINHV_TESTS_UNIT_VLAPIC_BUS_FIXTURE_H

#include "hv/vlapic/vlapic.h"

#define N 4
extern struct vlapic cpu[N];
extern unsigned notified[N]; /* the bus's notifications of cpu[i] */

/* cmocka set-up: the four vLAPICs above, fresh. */
int setup(void **s);
/* A register write the vLAPIC must accept. */
void w(struct vlapic *l, u32 off, u64 v);
/* vec pending in l's IRR. */
bool irr(struct vlapic *l, u8 vec);

#endif
