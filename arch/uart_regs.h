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

#define UART_IIR_NO_INT 0x01 /* no interrupt pending */
#define UART_FCR_ENABLE_FIFO 0x01
#define UART_FCR_CLEAR_RCVR 0x02
#define UART_FCR_CLEAR_XMIT 0x04
#define UART_LCR_WLEN8 0x03 /* 8 data bits, 1 stop bit, no parity */
#define UART_LCR_DLAB 0x80 /* divisor latch access */
#define UART_MCR_DTR 0x01
#define UART_MCR_RTS 0x02
#define UART_LSR_THRE 0x20 /* transmit holding register empty */
#define UART_LSR_TEMT 0x40 /* transmitter empty */

#endif
