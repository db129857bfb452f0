/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/stop.h - how a run ends: QEMU isa-debug-exit, halt, or reset.
 * The method is chosen once from the options and what the machine is. */
#ifndef MINHV_HV_STOP_H
#define MINHV_HV_STOP_H

#include "arch/types.h"

enum stop_status { STOP_PASS = 0, STOP_FAIL = 1 };
enum exit_method { EXIT_AUTO, EXIT_QEMU, EXIT_HALT, EXIT_RESET };

/* EXIT_QEMU writes s to isa-debug-exit (arch/debug_exit_regs.h): QEMU
 * exits with (s << 1) | 1, so pass = 1 and fail = 3. */

void stop_configure(enum exit_method m, bool under_qemu);
/* Ends the run for the whole machine. Safe from any CPU, any context. */
_Noreturn void hv_stop(enum stop_status s);
/* Installed by SMP: stop every other CPU before the run ends. */
extern void (*g_stop_others)(void);

#endif
