/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/trap.h - what trap_dispatch() (hv/trap.c) calls above the core, by a
 * direct call because it runs before any indirect branch: declared here,
 * at the bottom, and implemented by hv/park (docs/ARCHITECTURE.md). */
#ifndef MINHV_HV_TRAP_H
#define MINHV_HV_TRAP_H

/* First thing in trap_dispatch(), before any indirect branch: on a parked
 * CPU whose SPEC_CTRL is lowered, restore the base value (hv/park/park.c). */
void park_irq_enter(void);

#endif
