// SPDX-License-Identifier: GPL-2.0-only
/* arch/uart.c - 16550 UART driver: 8N1, FIFOs on, polled transmit.
 * Register map: PC16550D data sheet (THR/DLL 0, IER/DLM 1, FCR 2, LCR 3,
 * MCR 4, LSR 5). */
#include "arch/uart.h"
#include "arch/cpu.h"

#define UART_CLOCK 115200
#define LSR_THRE 0x20

static void reg_write(const struct uart *u, u32 reg, u8 v)
{
	if (u->space == UART_IO)
		outb((u16)(u->base + reg), v);
	else
		mmio_write32(hpa(u->base + ((u64)reg << u->reg_shift)), v);
}

static u8 reg_read(const struct uart *u, u32 reg)
{
	if (u->space == UART_IO)
		return inb((u16)(u->base + reg));
	return (u8)mmio_read32(hpa(u->base + ((u64)reg << u->reg_shift)));
}

void uart_init(const struct uart *u)
{
	reg_write(u, 1, 0x00); /* no interrupts: minhv polls */
	if (u->baud) {
		u32 div = UART_CLOCK / u->baud;

		reg_write(u, 3, 0x80); /* DLAB */
		reg_write(u, 0, (u8)div);
		reg_write(u, 1, (u8)(div >> 8));
	}
	reg_write(u, 3, 0x03); /* 8N1, DLAB off */
	reg_write(u, 2, 0x07); /* FIFO on, clear both */
	reg_write(u, 4, 0x03); /* DTR, RTS */
}

void uart_putc(const struct uart *u, char c)
{
	/* Bounded wait: a missing UART must not hang the hypervisor. */
	for (u32 spin = 0; spin < 100000; spin++)
		if (reg_read(u, 5) & LSR_THRE)
			break;
	reg_write(u, 0, (u8)c);
}
