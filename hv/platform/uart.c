// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/uart.c - a 16550 UART at 0x3f8 (NS16550D data sheet): THR
 * bytes go to the guest console; the transmitter is always empty (LSR THRE
 * and TEMT); nothing is ever received (RBR 0, LSR DR 0); IER, LCR, MCR,
 * SCR and the divisor latch read back what was written. */
#include "arch/uart_regs.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

u32 uart_in(struct vcpu *v, u16 port, unsigned size)
{
	struct uart16550 *u = &vcpu_platform(v)->uart;
	bool dlab = u->lcr & UART_LCR_DLAB;

	(void)size;
	switch (port) {
	case UART_RX: /* UART_DLL with DLAB */
		return dlab ? u->dll : 0;
	case UART_IER: /* UART_DLM with DLAB */
		return dlab ? u->dlm : u->ier;
	case UART_IIR:
		return UART_IIR_NO_INT;
	case UART_LCR:
		return u->lcr;
	case UART_MCR:
		return u->mcr;
	case UART_LSR:
		return UART_LSR_THRE | UART_LSR_TEMT;
	case UART_MSR:
		return 0;
	default:
		return u->scr;
	}
}

void uart_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct uart16550 *u = &vcpu_platform(v)->uart;
	bool dlab = u->lcr & UART_LCR_DLAB;
	u8 b = (u8)val;

	(void)size;
	switch (port) {
	case UART_TX: /* UART_DLL with DLAB */
		if (dlab) {
			u->dll = b;
		} else {
			char c = (char)b;

			guest_console_put(v, &c, 1);
		}
		break;
	case UART_IER: /* UART_DLM with DLAB */
		if (dlab)
			u->dlm = b;
		else
			u->ier = b & 0x0f;
		break;
	case UART_LCR:
		u->lcr = b;
		break;
	case UART_MCR:
		u->mcr = b & 0x1f;
		break;
	case UART_SCR:
		u->scr = b;
		break;
	default: /* FCR: no FIFOs to reset; LSR/MSR: read-only */
		break;
	}
}
