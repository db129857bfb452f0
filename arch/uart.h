/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/uart.h - 16550-compatible UART, port I/O or MMIO (as SPCR describes). */
#ifndef MINHV_ARCH_UART_H
#define MINHV_ARCH_UART_H

#include "arch/types.h"

enum uart_space { UART_IO, UART_MMIO };

struct uart {
	enum uart_space space;
	u64 base;
	u32 reg_shift; /* MMIO register stride = 1 << reg_shift bytes */
	u32 baud; /* 0: keep the firmware's setting */
	bool stuck; /* a THRE wait ran out: wait briefly until THRE is back */
	u8 fifo; /* transmit FIFO bytes uart_init() found (16 or 1) */
	u8 tx_room; /* bytes the FIFO takes before THRE is looked at again */
};

/* 8N1, FIFOs on: u->fifo says whether they came on (a 16550A's IIR). */
void uart_init(struct uart *u);
/* Waits for THRE when the FIFO may be full (see arch/uart.c for how
 * long), then writes: one byte, or n of them. */
void uart_putc(struct uart *u, char c);
void uart_puts(struct uart *u, const char *s, size_t n);
/* A received byte, or -ENOENT when none is waiting (LSR.DR clear). */
int uart_getc(const struct uart *u);

#endif
