/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/console.h - guest output: printf() to the hypervisor console by
 * HC_CONSOLE_WRITE, and com1_*() through the COM1 data port (0x3f8). */
#ifndef MINHV_GUEST_CONSOLE_H
#define MINHV_GUEST_CONSOLE_H

#include <stdarg.h>

#include "lib/types.h"

#define COM1_PORT 0x3f8
#define PRINTF_MAX 512 /* longer output is cut */

/* Each call is one HC_CONSOLE_WRITE, so lines from vCPUs do not mix.
 * Returns the hypercall's result (bytes written or -HC_E*). */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
void puts_hc(const char *s);

void com1_write(const char *s, size_t n);
void com1_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
