// SPDX-License-Identifier: GPL-2.0-only
/* hv/log.c - kprintf/pr_*() on top of the console, with log levels.
 * Lines are formatted on the stack, then written under the console lock. */
#include "hv/log.h"
#include "hv/console.h"
#include "lib/fmt.h"
#include "hv/stop.h"

int g_loglevel = LOG_INFO;

static const char *const level_tag[] = { "error: ", "warning: ", "",
					 "debug: " };

void kvprintf(const char *fmt, va_list ap)
{
	char buf[512];
	int n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	console_lock();
	console_write(buf, (size_t)n);
	console_unlock();
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
}

size_t log_vformat(int level, char *buf, size_t size, const char *fmt,
		   va_list ap)
{
	const char *tag = level_tag[level < 0 ? 0 : level > 3 ? 3 : level];
	int n;

	if (level > g_loglevel || size < 2)
		return 0;
	n = fmt_snprintf(buf, size, "%s", tag);
	n += fmt_vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	if (n > (int)size - 1)
		n = (int)size - 1;
	return (size_t)n;
}

void log_printf(int level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = log_vformat(level, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!n)
		return;
	console_lock();
	console_write(buf, n);
	console_unlock();
}

_Noreturn void panic(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	console_break_lock();
	n = fmt_snprintf(buf, sizeof(buf), "PANIC: ");
	va_start(ap, fmt);
	n += fmt_vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	console_write(buf, (size_t)n);
	hv_stop(STOP_FAIL);
}
