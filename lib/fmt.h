/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/fmt.h - a small printf-style formatter (no floating point).
 * Shared by the hypervisor console and the test guest. */
#ifndef MINHV_LIB_FMT_H
#define MINHV_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Like vsnprintf: writes at most n bytes including the NUL, returns the
 * length the full output would have had. Conversions: %d %i %u %x %X %o
 * %p %s %c %%, flags '-' '0' '+' ' ' '#', width and precision (also '*'),
 * length modifiers hh h l ll z j t. */
int fmt_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
