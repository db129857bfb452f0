// SPDX-License-Identifier: GPL-2.0-only
/* hv/console.c - the hypervisor console: one UART, one lock, CRLF.
 * The lock is a plain spinlock; the panic path breaks it on purpose. */
#include "hv/console.h"
#include "arch/errno.h"
#include "arch/uart.h"
#include "arch/spinlock.h"
#include "arch/uart_regs.h"

static struct uart con_uart = { .space = UART_IO, .base = UART_COM1_PORT };
static bool con_ready;
static spinlock_t con_lock;
static volatile bool con_broken;

void console_setup(const struct uart *u)
{
	con_uart = *u;
	uart_init(&con_uart);
	con_ready = true;
}

void console_write(const char *s, size_t n)
{
	if (!con_ready)
		return;
	/* The runs between newlines whole, each newline as CRLF. */
	for (size_t i = 0, run = 0; i <= n; i++) {
		if (i < n && s[i] != '\n')
			continue;
		uart_puts(&con_uart, s + run, i - run);
		if (i < n)
			uart_puts(&con_uart, "\r\n", 2);
		run = i + 1;
	}
}

int console_getc(void)
{
	return con_ready ? uart_getc(&con_uart) : -ENOENT;
}

void console_lock(void)
{
	/* Bounded spin: a CPU that died holding the lock costs a garbled line,
	 * not a silent machine. */
	for (u32 spin = 0; !con_broken; spin++) {
		if (spin_trylock(&con_lock))
			return;
		if (spin > 50000000)
			return;
		cpu_relax();
	}
}

bool console_trylock(u32 spins)
{
	for (u32 spin = 0; !con_broken; spin++) {
		if (spin_trylock(&con_lock))
			return true;
		if (spin >= spins)
			return false;
		cpu_relax();
	}
	return true; /* broken: write without it, as console_lock() does */
}

void console_unlock(void)
{
	spin_unlock(&con_lock);
}

void console_break_lock(void)
{
	con_broken = true;
}
