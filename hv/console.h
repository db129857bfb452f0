/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/console.h - where console bytes go: the serial port, plus an optional
 * capture hook (unit tests, and the boot log ring). */
#ifndef MINHV_HV_CONSOLE_H
#define MINHV_HV_CONSOLE_H

#include "arch/types.h"
#include "arch/uart.h"

void console_write(const char *s, size_t n);
/* A byte typed on the console (polled), or -ENOENT. */
int console_getc(void);
/* Panic path: stop honouring the console lock so a CPU that died while
 * holding it cannot silence the report. */
void console_break_lock(void);
void console_lock(void);
void console_unlock(void);
/* For NMI and #MC handlers, which may have interrupted this very CPU
 * inside console_lock(): false when the lock stays taken for spins
 * retries (then the caller must not write). */
bool console_trylock(u32 spins);
/* Choosing the console device (boot and options only). */
void console_setup(const struct uart *u);

#endif
