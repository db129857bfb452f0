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
 * rate it is busy (THRE clear) until platform_poll() finds it idle. */
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

void uart_set_rate(struct uart16550 *u, u32 rate, u64 tsc_khz, u64 now)
{
	u->tx_rate = tsc_khz ? rate : 0;
	u->tsc_khz = tsc_khz;
	u->tx_credit = rate; /* one second's worth to start */
	u->tx_tsc = now;
	u->tx_busy = false;
}

/* Credit the bytes the line has sent since tx_tsc (at most a second's
 * worth is banked: a longer idle adds no more). */
static void tx_refill(struct uart16550 *u, u64 now)
{
	u64 hz = u->tsc_khz * 1000, dt, add;

	if (!u->tx_rate || now <= u->tx_tsc)
		return;
	dt = now - u->tx_tsc;
	/* dt < hz (below 2^34 at 16 GHz) times a rate of at most 2^24
	 * (guest_console_rate's limit): no overflow. */
	add = dt >= hz ? u->tx_rate : dt * u->tx_rate / hz;
	if (u->tx_credit + (s64)add >= (s64)u->tx_rate) {
		u->tx_credit = u->tx_rate;
		u->tx_tsc = now;
		return;
	}
	/* Keep the fraction of a byte for the next look. */
	u->tx_credit += (s64)add;
	u->tx_tsc += add * hz / u->tx_rate;
}

/* Cycles from tx_tsc until the bank holds `want` bytes, rounded up. */
static u64 tx_until(const struct uart16550 *u, s64 want)
{
	u64 hz = u->tsc_khz * 1000, need = (u64)(want - u->tx_credit);

	return u->tx_tsc + (need * hz + u->tx_rate - 1) / u->tx_rate;
}

u64 uart_tx_poll(struct uart16550 *u, u64 now)
{
	if (!u->tx_busy)
		return 0;
	tx_refill(u, now);
	if (u->tx_credit < 0)
		return tx_until(u, 0);
	/* The FIFO drained: THR empty again, and its interrupt with it. */
	u->tx_busy = false;
	u->thr_ipending = true;
	return 0;
}

u64 uart_tx_stall(struct uart16550 *u, u64 now)
{
	if (!u->tx_busy)
		return 0;
	tx_refill(u, now);
	if (u->tx_credit >= -(s64)UART_FIFO_SIZE)
		return 0;
	return tx_until(u, -(s64)UART_FIFO_SIZE) - now;
}

bool uart_thre_settle(struct uart16550 *u)
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
static void tx_byte(struct uart16550 *u, u64 now)
{
	u->thr_ipending = false;
	if (u->tx_rate) {
		tx_refill(u, now);
		u->tx_credit--;
		u->tx_busy = u->tx_credit < 0;
	}
	/* Busy: THRE (and its interrupt) wait for uart_tx_poll(). */
	u->thre_due = !u->tx_busy;
}

/* Every guest access first: the transmitter caught up with now, an owed
 * THRE interrupt pending (so the access sees it, and an IIR read takes
 * it without an edge), and the access noted for platform_thre_tick(). */
static void guest_access(struct uart16550 *u, u64 now)
{
	uart_tx_poll(u, now);
	uart_thre_settle(u);
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

u8 uart_read(struct uart16550 *u, u16 off, u64 now)
{
	bool dlab = u->lcr & UART_LCR_DLAB;
	u8 v;

	guest_access(u, now);
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
		v = (u->tx_busy ? 0 : UART_LSR_THRE | UART_LSR_TEMT) |
		    u->lsr_err | (u->rx_n ? UART_LSR_DR : 0);
		u->lsr_err = 0;
		return v;
	case UART_MSR:
		return msr(u);
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

/* The line so far to minhv's console, prefixed with the guest's name. */
static void line_out(struct vcpu *v, struct uart16550 *u)
{
	guest_console_line(v, u->line, u->line_len);
	u->line_len = 0;
}

static void put(struct vcpu *v, struct uart16550 *u, char c, u64 now)
{
	if (c == '\n') {
		line_out(v, u);
		return;
	}
	if (c == '\r')
		return; /* the console adds its own */
	u->line[u->line_len++] = c;
	u->line_tsc = now;
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
		put(v, u, (char)c, now);
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
