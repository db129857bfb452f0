// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/uart.c - the 16550A at 0x3f8, IRQ 4 (TI PC16550D data sheet;
 * the register behaviour is QEMU's serial.c, so Linux's 8250 driver finds
 * a 16550A): the transmitter sends at once (THRE and TEMT always set, the
 * THRE interrupt owed after each write while IER asks for it, raised once
 * the writer looks again or stops: tx_byte()), the 16-byte
 * receive FIFO is filled from the host console by platform_poll(), IIR
 * reports line status, data, THRE and modem status by priority, MCR.OUT2
 * gates the interrupt onto the IRQ line and loopback returns what is
 * sent. Transmitted bytes reach minhv's console a whole line at a time.
 * guest_console_rate paces the transmitter instead of dropping: over the
 * rate it is busy (THRE clear) until platform_poll() finds it idle. This
 * is the general path, every access; a console byte's accesses mostly
 * take uart_fast.c's, with the semantics of uart_internal.h. */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/uart_internal.h"

void uart_reset(struct uart16550 *u)
{
	*u = (struct uart16550){ 0 };
}

/* The pace as a schedule rather than a count (a leaky bucket): tx_done is
 * when the line will have sent every byte taken so far, each byte adding
 * tx_cost cycles after the later of tx_done and now. More than tx_bank
 * (one second's worth) still to send is more than the bank allows: the
 * transmitter is busy. Nothing to refill, no division per byte. */
void uart_set_rate(struct uart16550 *u, u32 rate, u64 tsc_khz, u64 now)
{
	u->tx_rate = tsc_khz ? rate : 0;
	/* Rounded up: never faster than the rate. */
	u->tx_cost = u->tx_rate ? (tsc_khz * 1000 + rate - 1) / rate : 0;
	u->tx_bank = u->tx_cost * u->tx_rate;
	u->tx_done = now; /* idle: a second's worth to start */
	u->tx_busy = false;
}

u64 uart_tx_poll(struct uart16550 *u, u64 now)
{
	if (!u->tx_busy)
		return 0;
	if (tx_backlog(u, now) > u->tx_bank)
		return u->tx_done - u->tx_bank;
	/* The FIFO drained: THR empty again, and its interrupt with it. */
	u->tx_busy = false;
	u->thr_ipending = true;
	return 0;
}

u64 uart_tx_stall(struct uart16550 *u, u64 now)
{
	u64 fifo = u->tx_bank + UART_FIFO_SIZE * u->tx_cost;

	if (!u->tx_busy || tx_backlog(u, now) <= fifo)
		return 0;
	return u->tx_done - fifo - now;
}

/* Every guest access first: the transmitter caught up with now, an owed
 * THRE interrupt pending (so the access sees it, and an IIR read takes
 * it without an edge), and the access noted for platform_thre_tick(). */
static void guest_access(struct uart16550 *u, u64 now)
{
	uart_tx_poll(u, now);
	thre_settle(u);
	u->touched = true;
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

bool uart_irq(const struct uart16550 *u)
{
	return (u->mcr & UART_MCR_OUT2) && !(uart_iir(u) & UART_IIR_NO_INT);
}

u8 uart_read(struct uart16550 *u, u16 off, u64 now)
{
	bool dlab = u->lcr & UART_LCR_DLAB;

	guest_access(u, now);
	switch (off) {
	case UART_RX: /* UART_DLL with DLAB */
		return dlab ? u->dll : rx_pop(u);
	case UART_IER: /* UART_DLM with DLAB */
		return dlab ? u->dlm : u->ier;
	case UART_IIR:
		return iir_take(u);
	case UART_LCR:
		return u->lcr;
	case UART_MCR:
		return u->mcr;
	case UART_LSR:
		return lsr_take(u);
	case UART_MSR:
		return msr_of(u);
	default:
		return u->scr;
	}
}

int uart_write(struct uart16550 *u, u16 off, u8 val, u64 now)
{
	bool dlab = u->lcr & UART_LCR_DLAB;
	int out = -ENOENT;

	guest_access(u, now);
	switch (off) {
	case UART_TX: /* UART_DLL with DLAB */
		if (dlab) {
			u->dll = val;
			break;
		}
		/* Sent at once: THR empty again, and its interrupt with it
		 * (over the rate: once the poll finds the line idle). */
		if (u->mcr & UART_MCR_LOOP)
			uart_rx_push(u, val);
		else
			out = val;
		tx_byte(u, now);
		break;
	case UART_IER: /* UART_DLM with DLAB */
		if (dlab) {
			u->dlm = val;
			break;
		}
		/* Enabling the THRE interrupt with THR empty raises it (the
		 * test Linux's 8250 driver makes at startup); while busy,
		 * the transmitter raises it when it drains. */
		if ((val & UART_IER_THRI) && !(u->ier & UART_IER_THRI) &&
		    !u->tx_busy)
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

void uart_line_out(struct vcpu *v, struct uart16550 *u)
{
	guest_console_line(v, u->line, u->line_len);
	u->line_len = 0;
}

void uart_flush(struct vcpu *v)
{
	struct platform *p = vcpu_platform(v);

	if (p && p->uart.line_len)
		uart_line_out(v, &p->uart);
}

u32 uart_in(struct vcpu *v, u16 port, unsigned size)
{
	struct platform *p = vcpu_platform(v);
	u8 val;

	(void)size;
	spin_lock(&p->lock);
	val = uart_read(&p->uart, port, rdtsc());
	platform_set_irq(p, UART_COM1_IRQ, uart_irq(&p->uart));
	spin_unlock(&p->lock);
	return val;
}

void uart_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);
	struct uart16550 *u = &p->uart;
	u64 now = rdtsc(), stall;
	bool busy, rdi;
	int c;

	(void)size;
	spin_lock(&p->lock);
	busy = u->tx_busy;
	rdi = u->ier & UART_IER_RDI;
	c = uart_write(u, port, (u8)val, now);
	if (c >= 0)
		line_put(v, u, (char)c, now);
	if (u->thre_due)
		p->tx_vcpu = vcpu_id(v);
	/* The poll feeds the receiver (input is polled) and ends a busy
	 * transmitter: asked for when either starts. */
	if ((!busy && u->tx_busy) ||
	    (port == UART_IER && !rdi && (u->ier & UART_IER_RDI)))
		platform_poll_soon(p);
	platform_set_irq(p, UART_COM1_IRQ, uart_irq(u));
	stall = c >= 0 ? uart_tx_stall(u, now) : 0;
	spin_unlock(&p->lock);
	/* A writer that ignores THRE: this OUT takes as long as the line
	 * needs (its own vCPU waits, nothing is dropped). */
	if (stall > UART_STALL_MAX_MS * p->tsc_khz)
		stall = UART_STALL_MAX_MS * p->tsc_khz;
	for (u64 end = now + stall; stall && rdtsc() < end;)
		cpu_relax();
}
