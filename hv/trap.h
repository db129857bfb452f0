/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/trap.h - what trap_dispatch() (hv/trap.c) calls above the core:
 * declared here, at the bottom, and implemented by hv/park (a direct call,
 * because it runs before any indirect branch) and hv/ras (a log line safe
 * in any context) (docs/ARCHITECTURE.md). */
#ifndef MINHV_HV_TRAP_H
#define MINHV_HV_TRAP_H

/* First thing in trap_dispatch(), before any indirect branch: on a parked
 * CPU whose SPEC_CTRL is lowered, restore the base value (hv/park/park.c). */
void park_irq_enter(void);

/* A log line from any context (NMI, #MC, an interrupt that may have come
 * while this CPU held the console lock): printed at once when the console
 * lock comes free soon, else queued and printed by ras_report()
 * (hv/ras/defer.c). */
void ras_emit(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
