// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/uart_fast.c - the 16550A's fast path: the accesses Linux's
 * 8250 driver makes for nearly every console byte, done whole in one call
 * from the run loop (hv/svm/exit_io.h), built for speed; everything else
 * is uart.c's. */
#include "arch/cpu_inline.h"
#include "arch/ioapic.h"
#include "arch/spinlock.h"
#include "hv/platform/uart_internal.h"

/* The run loop's fast path (exit_com1_fast(), hv/svm/exit_io.h): a byte
 * access that leaves IRQ 4 as it is and asks for no poll, done whole under
 * the lock: THR written, IIR, LSR or MSR read, with DLAB and loopback off,
 * the transmitter not busy nor made busy, and the pin edge-triggered (a
 * level pin is serviced at every access, ioapic_set_irq()). Linux's 8250
 * driver makes nothing else for nearly every byte it sends. It calls
 * nothing (a leaf: no registers to save), so what would call out goes
 * the general way: a contended lock, and the byte that ends a console
 * line (uart_out() writes the line). Anything else returns false with
 * nothing done: uart_in() or uart_out() then. */
bool uart_fast(struct platform *p, u32 vcpu, u16 off, bool in, u64 *rax)
{
	struct uart16550 *u = &p->uart;
	bool ok = false, thri;
	u64 now;
	char c;

	if (!spin_trylock(&p->lock))
		return false;
	thri = u->ier & UART_IER_THRI;
	if ((u->lcr & UART_LCR_DLAB) || (u->mcr & UART_MCR_LOOP) ||
	    u->tx_busy ||
	    (__atomic_load_n(&p->ioapic.rte[UART_COM1_IRQ], __ATOMIC_RELAXED) &
	     IOAPIC_RTE_LEVEL))
		goto out;
	now = rdtsc_inline();
	if (!in) {
		/* Not a THRE the line shows (the byte would take it down),
		 * nor a byte over the bank (busy: a poll, a stall), nor the
		 * line's end. */
		c = (char)*rax;
		if (off != UART_TX || (thri && u->thr_ipending) ||
		    (u->tx_rate &&
		     tx_backlog(u, now) + u->tx_cost > u->tx_bank) ||
		    c == '\n' || u->line_len + 1 >= UART_LINE_MAX)
			goto out;
		thre_settle(u);
		tx_byte(u, now);
		line_put(NULL, u, c, now); /* neither ends the line */
		p->tx_vcpu = vcpu;
	} else if (off == UART_IIR) {
		/* Not a THRE the line shows: this read takes it down. An
		 * owed one is raised and shown at once (guest_access()). */
		if (thri && u->thr_ipending && (u->mcr & UART_MCR_OUT2))
			goto out;
		thre_settle(u);
		*rax = (*rax & ~0xffULL) | iir_take(u);
	} else if (off == UART_LSR || off == UART_MSR) {
		/* Not an owed THRE this look would raise, nor errors it
		 * would clear. */
		if ((thri && u->thre_due) || u->lsr_err)
			goto out;
		thre_settle(u);
		*rax = (*rax & ~0xffULL) |
		       (off == UART_LSR ? lsr_take(u) : msr_of(u));
	} else {
		goto out;
	}
	u->touched = true;
	ok = true;
out:
	spin_unlock(&p->lock);
	return ok;
}
