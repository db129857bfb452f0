// SPDX-License-Identifier: GPL-2.0-only
/* guest/console.c - printf() through HC_CONSOLE_WRITE and through COM1,
 * formatted by the hypervisor's own lib/fmt.c. */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/x86.h"
#include "lib/fmt.h"
#include "lib/string.h"

int vprintf(const char *fmt, va_list ap)
{
	char buf[PRINTF_MAX];
	int n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	return (int)hc_console_write(buf, (u64)n);
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vprintf(fmt, ap);
	va_end(ap);
	return r;
}

void puts_hc(const char *s)
{
	hc_console_write(s, strlen(s));
}

void com1_write(const char *s, size_t n)
{
	while (n--)
		outb(COM1_PORT, (u8)*s++);
}

void com1_printf(const char *fmt, ...)
{
	char buf[PRINTF_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	com1_write(buf, (size_t)n);
}
