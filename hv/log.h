/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/log.h - leveled console logging and panic.
 * KTAP lines go through kprintf() unprefixed; diagnostics through pr_*(). */
#ifndef MINHV_HV_LOG_H
#define MINHV_HV_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };

extern int g_loglevel;

/* Whole lines are written under one lock so CPUs do not interleave. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kvprintf(const char *fmt, va_list ap);
void log_printf(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The line log_printf() would write (level tag first) into buf; its
 * length, or 0 when the level is filtered out. */
size_t log_vformat(int level, char *buf, size_t size, const char *fmt,
		   va_list ap);
_Noreturn void panic(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#define pr_err(...) log_printf(LOG_ERR, __VA_ARGS__)
#define pr_warn(...) log_printf(LOG_WARN, __VA_ARGS__)
#define pr_info(...) log_printf(LOG_INFO, __VA_ARGS__)
#define pr_debug(...) log_printf(LOG_DEBUG, __VA_ARGS__)

/* Invariant check: a broken one stops the machine with file and line. */
#define CHECK(c)                                                         \
	do {                                                             \
		if (!(c))                                                \
			panic("CHECK(%s) failed at %s:%d", #c, __FILE__, \
			      __LINE__);                                 \
	} while (0)

#endif
