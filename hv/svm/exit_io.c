// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_io.c - IOIO exits (APM vol 2, 15.10.2): a foreign guest's
 * platform devices first (hv/platform/ports.c); otherwise writes to COM1's
 * data port become guest console output; every other port reads all-ones
 * and drops writes (counted). String forms: hv/svm/exit_io_str.c. */
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/msr.h"
#include "arch/uart_regs.h"
#include "hv/svm/exit.h"
#include "hv/svm/exit_io.h"
#include "hv/vmcb/exit_decode.h"
#include "hv/guest/guest.h"
#include "hv/platform/platform.h"

void port_out(struct vcpu *v, const struct ioio_info *io, u32 val)
{
	if (platform_port_out(v, io->port, io->size, val) != E_NOT_MINE)
		return;
	if (io->port == UART_COM1_PORT && io->size == 1) {
		char c = (char)val;

		guest_console_put(v, &c, 1);
		return;
	}
	v->stats.io_dropped++;
}

u32 port_in(struct vcpu *v, const struct ioio_info *io)
{
	u32 val;

	if (platform_port_in(v, io->port, io->size, &val) != E_NOT_MINE)
		return val & (0xffffffffu >> (32 - 8 * io->size));
	if (io->port != UART_COM1_PORT)
		v->stats.io_dropped++;
	return 0xffffffffu >> (32 - 8 * io->size);
}

enum exit_action exit_ioio(struct vcpu *v)
{
	struct ioio_info io;
	u64 *rax = &v->vmcb->save.rax;

	exit_ioio_decode(v->vmcb->control.exit_info1, &io);
	if (!io.size) {
		guest_stop(v->guest, -1, true,
			   "vCPU %u: IOIO exit without size", v->id);
		return EXIT_LEAVE;
	}
	if (io.str) {
		switch (string_io(v, &io)) {
		case STR_BAD:
			return EXIT_LEAVE;
		case STR_MORE:
			return EXIT_RESUME; /* RIP stays: the REP goes on */
		case STR_DONE:
			break;
		}
	} else if (io.in) {
		u32 val = port_in(v, &io);

		/* IN AL/AX keep the upper bits; IN EAX zero-extends. */
		if (io.size == 4)
			*rax = val;
		else if (io.size == 2)
			*rax = (*rax & ~0xffffULL) | (val & 0xffff);
		else
			*rax = (*rax & ~0xffULL) | (val & 0xff);
	} else {
		port_out(v, &io, (u32)*rax);
	}
	return vcpu_skip_insn(v) ? EXIT_RESUME : EXIT_LEAVE;
}
