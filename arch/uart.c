// SPDX-License-Identifier: GPL-2.0-only
/* arch/uart.c - 16550 UART driver: 8N1, FIFOs on, polled transmit.
 * Register map: PC16550D data sheet (arch/uart_regs.h). */
#include "arch/uart.h"
#include "arch/cpu.h"
#include "arch/errno.h"
#include "arch/uart_regs.h"

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

void uart_init(struct uart *u)
{
	reg_write(u, UART_IER, 0x00); /* no interrupts: minhv polls */
	if (u->baud) {
		u32 div = UART_BASE_BAUD / u->baud;

		reg_write(u, UART_LCR, UART_LCR_DLAB);
		reg_write(u, UART_DLL, (u8)div);
		reg_write(u, UART_DLM, (u8)(div >> 8));
	}
	reg_write(u, UART_LCR, UART_LCR_WLEN8); /* 8N1, DLAB off */
	reg_write(u, UART_FCR,
		  UART_FCR_ENABLE_FIFO | UART_FCR_CLEAR_RCVR |
			  UART_FCR_CLEAR_XMIT);
	reg_write(u, UART_MCR, UART_MCR_DTR | UART_MCR_RTS);
	/* IIR bits 7:6 both set: the FIFOs are on (a 16550A; a 16450 has
	 * none, a 16550 a broken one), and THRE then means the whole
	 * transmit FIFO is empty (PC16550D, LSR bit 5). */
	u->fifo = (reg_read(u, UART_IIR) & UART_IIR_FIFO_ENABLED) ==
				  UART_IIR_FIFO_ENABLED ?
			  UART_FIFO_SIZE :
			  1;
	u->tx_room = 0;
}

/* How many LSR reads uart_putc() waits for THRE. A UART that is there
 * can hold THRE clear for long: behind QEMU's socket chardev, while the
 * reader is slow (a loaded host), its transmitter retries one byte and a
 * write to a full FIFO drops the oldest byte (PC16550D: THR writes while
 * not THRE overrun the FIFO). So wait long, about seconds; but after one
 * wait ran out, only briefly until THRE is seen again, so a UART whose
 * THRE never comes costs the hypervisor little per byte. A missing UART
 * reads all ones (nothing drives the bus), THRE among them: no wait. */
#define UART_THRE_WAIT (1u << 24)
#define UART_THRE_WAIT_STUCK 1000

/* Until THRE: then the whole FIFO is free. Out of line, so the bytes that
 * do not look (15 of 16) save no registers. */
static __attribute__((noinline)) void wait_thre(struct uart *u)
{
	u32 limit = u->stuck ? UART_THRE_WAIT_STUCK : UART_THRE_WAIT;

	for (u32 spin = 0; !u->tx_room; spin++) {
		if (reg_read(u, UART_LSR) & UART_LSR_THRE) {
			u->stuck = false;
			u->tx_room = u->fifo ? u->fifo : 1;
		} else if (spin >= limit) {
			u->stuck = true;
			u->tx_room = 1;
		}
	}
}

/* THRE, then as many bytes as the FIFO holds without looking again: one
 * LSR read per 16 bytes instead of one per byte (a port read is an exit
 * when minhv itself runs under a hypervisor), and no call per byte. */
void uart_puts(struct uart *u, const char *s, size_t n)
{
	while (n) {
		size_t k;

		if (!u->tx_room)
			wait_thre(u);
		k = n < u->tx_room ? n : u->tx_room;
		u->tx_room -= (u8)k;
		n -= k;
		while (k--)
			reg_write(u, UART_TX, (u8)*s++);
	}
}

void uart_putc(struct uart *u, char c)
{
	uart_puts(u, &c, 1);
}

int uart_getc(const struct uart *u)
{
	if (!(reg_read(u, UART_LSR) & UART_LSR_DR))
		return -ENOENT;
	return reg_read(u, UART_RX);
}
