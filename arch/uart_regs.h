/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/uart_regs.h - 16550 UART registers and bits (TI PC16550D data
 * sheet, table 2; the NS16550 is the same), and the PC's COM port bases.
 * Only constants, shared by the console driver (arch/uart.c) and the
 * UART a guest sees (hv/platform/uart.c), as Linux's serial_reg.h is.
 * Offsets count registers: an MMIO UART spaces them 1 << reg_shift
 * bytes apart. */
#ifndef MINHV_ARCH_UART_REGS_H
#define MINHV_ARCH_UART_REGS_H

#define UART_COM1_PORT 0x3f8
#define UART_COM2_PORT 0x2f8
#define UART_COM3_PORT 0x3e8
#define UART_COM4_PORT 0x2e8
#define UART_NR_PORTS 8 /* registers at base + 0..7 */

/* The divisor latch divides this (1.8432 MHz / 16) into the baud rate. */
#define UART_BASE_BAUD 115200

#define UART_RX 0 /* receive buffer (read, DLAB=0) */
#define UART_TX 0 /* transmit holding (write, DLAB=0) */
#define UART_DLL 0 /* divisor latch low (DLAB=1) */
#define UART_IER 1 /* interrupt enable (DLAB=0) */
#define UART_DLM 1 /* divisor latch high (DLAB=1) */
#define UART_IIR 2 /* interrupt identification (read) */
#define UART_FCR 2 /* FIFO control (write) */
#define UART_LCR 3 /* line control */
#define UART_MCR 4 /* modem control */
#define UART_LSR 5 /* line status */
#define UART_MSR 6 /* modem status */
#define UART_SCR 7 /* scratch */

#define UART_IER_RDI 0x01 /* received data available */
#define UART_IER_THRI 0x02 /* transmitter holding register empty */
#define UART_IER_RLSI 0x04 /* receiver line status */
#define UART_IER_MSI 0x08 /* modem status */

/* IIR: bit 0 clear when an interrupt is pending, bits 3:1 which one (the
 * highest priority first: line status, data, timeout, THRE, modem). */
#define UART_IIR_NO_INT 0x01 /* no interrupt pending */
#define UART_IIR_MSI 0x00
#define UART_IIR_THRI 0x02
#define UART_IIR_RDI 0x04
#define UART_IIR_RLSI 0x06
#define UART_IIR_FIFO_ENABLED 0xc0 /* both bits: 16550A FIFOs on */
#define UART_IIR_ID 0x0e /* bits 3:1, the interrupt's identity */
#define UART_FCR_ENABLE_FIFO 0x01
#define UART_FCR_CLEAR_RCVR 0x02
#define UART_FCR_CLEAR_XMIT 0x04
#define UART_FCR_TRIGGER_MASK 0xc0 /* receive trigger: 1, 4, 8, 14 bytes */
#define UART_FIFO_SIZE 16
#define UART_LCR_WLEN8 0x03 /* 8 data bits, 1 stop bit, no parity */
#define UART_LCR_DLAB 0x80 /* divisor latch access */
#define UART_MCR_DTR 0x01
#define UART_MCR_RTS 0x02
#define UART_MCR_OUT1 0x04
#define UART_MCR_OUT2 0x08 /* PC: gates INTR onto the IRQ line */
#define UART_MCR_LOOP 0x10 /* loopback */
#define UART_LSR_DR 0x01 /* receiver data ready */
#define UART_LSR_OE 0x02 /* overrun */
#define UART_LSR_THRE 0x20 /* transmit holding register empty */
#define UART_LSR_TEMT 0x40 /* transmitter empty */
#define UART_LSR_ERRORS 0x1e /* OE, PE, FE, BI: cleared by reading LSR */
#define UART_MSR_CTS 0x10
#define UART_MSR_DSR 0x20
#define UART_MSR_RI 0x40
#define UART_MSR_DCD 0x80
#define UART_MSR_DELTA 0x0f /* DCTS, DDSR, TERI, DDCD */

#endif
