// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/uart.c - a 16550 UART at 0x3f8 (NS16550D data sheet): THR
 * bytes go to the guest console; the transmitter is always empty (LSR THRE
 * and TEMT); nothing is ever received (RBR 0, LSR DR 0); IER, LCR, MCR,
 * SCR and the divisor latch read back what was written. */
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

#define RBR_THR 0
#define IER 1
#define IIR_FCR 2
#define LCR 3
#define MCR 4
#define LSR 5
#define MSR 6
#define SCR 7
#define LCR_DLAB BIT(7)
#define LSR_THRE BIT(5)
#define LSR_TEMT BIT(6)
#define IIR_NONE 0x01 /* no interrupt pending */

u32 uart_in(struct vcpu *v, u16 port, unsigned size)
{
	struct uart16550 *u = &vcpu_platform(v)->uart;
	bool dlab = u->lcr & LCR_DLAB;

	(void)size;
	switch (port) {
	case RBR_THR:
		return dlab ? u->dll : 0;
	case IER:
		return dlab ? u->dlm : u->ier;
	case IIR_FCR:
		return IIR_NONE;
	case LCR:
		return u->lcr;
	case MCR:
		return u->mcr;
	case LSR:
		return LSR_THRE | LSR_TEMT;
	case MSR:
		return 0;
	default:
		return u->scr;
	}
}

void uart_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct uart16550 *u = &vcpu_platform(v)->uart;
	bool dlab = u->lcr & LCR_DLAB;
	u8 b = (u8)val;

	(void)size;
	switch (port) {
	case RBR_THR:
		if (dlab) {
			u->dll = b;
		} else {
			char c = (char)b;

			guest_console_put(v, &c, 1);
		}
		break;
	case IER:
		if (dlab)
			u->dlm = b;
		else
			u->ier = b & 0x0f;
		break;
	case LCR:
		u->lcr = b;
		break;
	case MCR:
		u->mcr = b & 0x1f;
		break;
	case SCR:
		u->scr = b;
		break;
	default: /* FCR: no FIFOs to reset; LSR/MSR: read-only */
		break;
	}
}
