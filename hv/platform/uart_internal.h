/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/platform/uart_internal.h - the 16550A's register semantics that both
 * of its paths share, inline: the general one (uart.c, every access, built
 * for size) and the run loop's fast one (uart_fast.c, a console byte's
 * accesses). One definition of each, so the two cannot drift apart. */
#ifndef MINHV_HV_PLATFORM_UART_INTERNAL_H
#define MINHV_HV_PLATFORM_UART_INTERNAL_H

#include "arch/uart_regs.h"
#include "hv/platform/platform.h"

/* What the line has still to send at now, in TSC cycles. */
static inline u64 tx_backlog(const struct uart16550 *u, u64 now)
{
	return u->tx_done > now ? u->tx_done - now : 0;
}

/* The owed THRE interrupt (thre_due) raised; true if there was one
 * (also platform_thre_tick()'s, irq.c). */
static inline bool thre_settle(struct uart16550 *u)
{
	if (!u->thre_due)
		return false;
	u->thre_due = false;
	u->thr_ipending = true;
	return true;
}

/* A byte into the transmitter: out at once, counted against the bank.
 * THR is empty again at once, as LSR says, but its interrupt is owed,
 * not raised (thre_due): raised in the exit that took the byte, Linux's
 * 8250 handler found it pending again at the IRET of every FIFO load
 * while another vCPU kept its buffer full, and the CPU taking IRQ 4
 * never got back to its idle loop (a soft lockup after 20 s). The
 * handler's own next IIR read still sees it (uart_read()). */
static inline void tx_byte(struct uart16550 *u, u64 now)
{
	u->thr_ipending = false;
	if (u->tx_rate) {
		u->tx_done = (u->tx_done > now ? u->tx_done : now) + u->tx_cost;
		u->tx_busy = u->tx_done - now > u->tx_bank;
	}
	/* Busy: THRE (and its interrupt) wait for uart_tx_poll(). */
	u->thre_due = !u->tx_busy;
}

static inline u8 msr_of(const struct uart16550 *u)
{
	u8 m = u->mcr;

	/* Loopback wires DTR->DSR, RTS->CTS, OUT1->RI, OUT2->DCD; the line
	 * itself is a terminal that is always there (as QEMU's). */
	if (!(m & UART_MCR_LOOP))
		return UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS;
	return (m & UART_MCR_DTR ? UART_MSR_DSR : 0) |
	       (m & UART_MCR_RTS ? UART_MSR_CTS : 0) |
	       (m & UART_MCR_OUT1 ? UART_MSR_RI : 0) |
	       (m & UART_MCR_OUT2 ? UART_MSR_DCD : 0);
}

/* IIR read: it clears a THRE interrupt it shows. */
static inline u8 iir_take(struct uart16550 *u)
{
	u8 v = uart_iir(u);

	if ((v & UART_IIR_ID) == UART_IIR_THRI)
		u->thr_ipending = false;
	return v;
}

/* LSR read: it clears the error bits it shows. */
static inline u8 lsr_take(struct uart16550 *u)
{
	u8 v = (u->tx_busy ? 0 : UART_LSR_THRE | UART_LSR_TEMT) | u->lsr_err |
	       (u->rx_n ? UART_LSR_DR : 0);

	u->lsr_err = 0;
	return v;
}

/* The line so far to minhv's console, prefixed with the guest's name
 * (uart.c). */
void uart_line_out(struct vcpu *v, struct uart16550 *u);

/* A transmitted byte onto the console line: whole lines go out. */
static inline void line_put(struct vcpu *v, struct uart16550 *u, char c,
			    u64 now)
{
	if (c == '\n') {
		uart_line_out(v, u);
		return;
	}
	if (c == '\r')
		return; /* the console adds its own */
	u->line[u->line_len++] = c;
	u->line_tsc = now;
	if (u->line_len == UART_LINE_MAX)
		uart_line_out(v, u);
}

#endif
