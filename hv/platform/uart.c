// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/uart.c - the 16550A at 0x3f8, IRQ 4 (TI PC16550D data sheet;
 * the register behaviour is QEMU's serial.c, so Linux's 8250 driver finds
 * a 16550A): the transmitter sends at once (THRE and TEMT always set, a
 * THRE interrupt after each write while IER asks for it), the 16-byte
 * receive FIFO is filled from the host console by platform_poll(), IIR
 * reports line status, data, THRE and modem status by priority, MCR.OUT2
 * gates the interrupt onto the IRQ line and loopback returns what is
 * sent. Transmitted bytes reach minhv's console a whole line at a time. */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "arch/uart_regs.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

#define LSR_ERRORS 0x1e /* OE, PE, FE, BI: cleared by reading LSR */
#define UART_IIR_ID 0x0e

void uart_reset(struct uart16550 *u)
{
	*u = (struct uart16550){ 0 };
}

bool uart_rx_room(const struct uart16550 *u)
{
	/* Without the FIFOs (16450 mode) the receiver holds one byte. */
	return u->rx_n < (u->fcr & UART_FCR_ENABLE_FIFO ? UART_FIFO_SIZE : 1);
}

int uart_rx_push(struct uart16550 *u, u8 b)
{
	if (!uart_rx_room(u)) {
		u->lsr_err |= UART_LSR_OE;
		return -ENOSPC;
	}
	u->rx[(u->rx_head + u->rx_n++) % UART_FIFO_SIZE] = b;
	return 0;
}

static u8 rx_pop(struct uart16550 *u)
{
	u8 b;

	if (!u->rx_n)
		return 0;
	b = u->rx[u->rx_head];
	u->rx_head = (u->rx_head + 1) % UART_FIFO_SIZE;
	u->rx_n--;
	return b;
}

static u8 msr(const struct uart16550 *u)
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

u8 uart_iir(const struct uart16550 *u)
{
	u8 fifo = u->fcr & UART_FCR_ENABLE_FIFO ? UART_IIR_FIFO_ENABLED : 0;

	if ((u->ier & UART_IER_RLSI) && (u->lsr_err & LSR_ERRORS))
		return fifo | UART_IIR_RLSI;
	if ((u->ier & UART_IER_RDI) && u->rx_n)
		return fifo | UART_IIR_RDI;
	if ((u->ier & UART_IER_THRI) && u->thr_ipending)
		return fifo | UART_IIR_THRI;
	/* No modem status change is ever latched (the delta bits stay 0). */
	return fifo | UART_IIR_NO_INT;
}

bool uart_irq(const struct uart16550 *u)
{
	return (u->mcr & UART_MCR_OUT2) && !(uart_iir(u) & UART_IIR_NO_INT);
}

u8 uart_read(struct uart16550 *u, u16 off)
{
	bool dlab = u->lcr & UART_LCR_DLAB;
	u8 v;

	switch (off) {
	case UART_RX: /* UART_DLL with DLAB */
		return dlab ? u->dll : rx_pop(u);
	case UART_IER: /* UART_DLM with DLAB */
		return dlab ? u->dlm : u->ier;
	case UART_IIR: /* reading it clears a THRE interrupt it shows */
		v = uart_iir(u);
		if ((v & UART_IIR_ID) == UART_IIR_THRI)
			u->thr_ipending = false;
		return v;
	case UART_LCR:
		return u->lcr;
	case UART_MCR:
		return u->mcr;
	case UART_LSR:
		v = UART_LSR_THRE | UART_LSR_TEMT | u->lsr_err |
		    (u->rx_n ? UART_LSR_DR : 0);
		u->lsr_err = 0;
		return v;
	case UART_MSR:
		return msr(u);
	default:
		return u->scr;
	}
}

int uart_write(struct uart16550 *u, u16 off, u8 val)
{
	bool dlab = u->lcr & UART_LCR_DLAB;
	int out = -ENOENT;

	switch (off) {
	case UART_TX: /* UART_DLL with DLAB */
		if (dlab) {
			u->dll = val;
			break;
		}
		/* Sent at once: THR empty again, and its interrupt with it. */
		if (u->mcr & UART_MCR_LOOP)
			uart_rx_push(u, val);
		else
			out = val;
		u->thr_ipending = true;
		break;
	case UART_IER: /* UART_DLM with DLAB */
		if (dlab) {
			u->dlm = val;
			break;
		}
		/* Enabling the THRE interrupt with THR empty raises it (the
		 * test Linux's 8250 driver makes at startup). */
		if ((val & UART_IER_THRI) && !(u->ier & UART_IER_THRI))
			u->thr_ipending = true;
		u->ier = val & 0x0f;
		break;
	case UART_FCR:
		/* Turning the FIFOs on or off empties them. */
		if ((val ^ u->fcr) & UART_FCR_ENABLE_FIFO ||
		    val & UART_FCR_CLEAR_RCVR)
			u->rx_n = u->rx_head = 0;
		u->fcr = val & (UART_FCR_ENABLE_FIFO | UART_FCR_TRIGGER_MASK);
		break;
	case UART_LCR:
		u->lcr = val;
		break;
	case UART_MCR:
		u->mcr = val & 0x1f;
		break;
	case UART_SCR:
		u->scr = val;
		break;
	default: /* LSR, MSR: read-only */
		break;
	}
	return out;
}

/* The line so far to minhv's console, prefixed with the guest's name. */
static void line_out(struct vcpu *v, struct uart16550 *u)
{
	guest_console_line(v, u->line, u->line_len);
	u->line_len = 0;
}

static void put(struct vcpu *v, struct uart16550 *u, char c)
{
	if (c == '\n') {
		line_out(v, u);
		return;
	}
	if (c == '\r')
		return; /* the console adds its own */
	u->line[u->line_len++] = c;
	u->line_tsc = rdtsc();
	if (u->line_len == UART_LINE_MAX)
		line_out(v, u);
}

void uart_flush(struct vcpu *v)
{
	struct platform *p = vcpu_platform(v);

	if (p && p->uart.line_len)
		line_out(v, &p->uart);
}

u32 uart_in(struct vcpu *v, u16 port, unsigned size)
{
	struct platform *p = vcpu_platform(v);
	u8 val;

	(void)size;
	spin_lock(&p->lock);
	val = uart_read(&p->uart, port);
	platform_set_irq(p, UART_COM1_IRQ, uart_irq(&p->uart));
	spin_unlock(&p->lock);
	return val;
}

void uart_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);
	int c;

	(void)size;
	spin_lock(&p->lock);
	c = uart_write(&p->uart, port, (u8)val);
	if (c >= 0)
		put(v, &p->uart, (char)c);
	if (port == UART_IER) /* the receiver's interrupt: input is polled */
		platform_poll_soon(p);
	platform_set_irq(p, UART_COM1_IRQ, uart_irq(&p->uart));
	spin_unlock(&p->lock);
}
