// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_io.c - IOIO exits (APM vol 2, 15.10.2): a foreign guest's
 * platform devices first (hv/platform/ports.c); otherwise writes to COM1's
 * data port become guest console output; every other port reads all-ones
 * and drops writes (counted). IN/OUT are decoded in place, the PM timer
 * read first; string forms: hv/svm/exit_io_str.c. */
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

/* Inlined into exit_ioio()'s IN path: the value masked to the size. */
static inline u32 port_read(struct vcpu *v, u16 port, unsigned size)
{
	u32 val;

	if (platform_port_in(v, port, size, &val) != E_NOT_MINE)
		return val & (0xffffffffu >> (32 - 8 * size));
	if (port != UART_COM1_PORT)
		v->stats.io_dropped++;
	return 0xffffffffu >> (32 - 8 * size);
}

u32 port_in(struct vcpu *v, const struct ioio_info *io)
{
	return port_read(v, io->port, io->size);
}

/* The string forms, and an exit without a size (a broken model): the
 * general decode. */
static __attribute__((noinline, cold)) enum exit_action
ioio_slow(struct vcpu *v)
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

/* IN and OUT decoded here, the string forms on the slow path. RIP comes
 * from EXITINFO2, the next instruction's (15.10.2), as exit_next_rip()
 * takes it for IOIO with or without NRIP. */
static __attribute__((noinline)) enum exit_action ioio_general(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	u64 e = vm->control.exit_info1;
	struct ioio_info io;

	if (__builtin_expect((e & IOIO_INFO_STR) ||
				     !(e & (IOIO_INFO_SZ8 | IOIO_INFO_SZ16 |
					    IOIO_INFO_SZ32)),
			     0))
		return ioio_slow(v);
	io.port = (u16)(e >> 16);
	io.size = (e & IOIO_INFO_SZ8) ? 1 : (e & IOIO_INFO_SZ16) ? 2 : 4;
	if (e & IOIO_INFO_IN) {
		u64 val = port_read(v, io.port, io.size), *rax = &vm->save.rax;
		/* IN AL/AX keep the upper bits; IN EAX zero-extends. */
		u64 keep = io.size == 4 ? 0 : ~0ULL << (8 * io.size);

		*rax = (*rax & keep) | val;
	} else {
		port_out(v, &io, (u32)vm->save.rax);
	}
	vcpu_insn_complete(v, vm->control.exit_info2);
	return EXIT_RESUME;
}

/* Every IOIO exit (COM1's common accesses came first: exit_com1_fast()).
 * IN EAX from the PM timer first, without the port table: the one port
 * guests poll (a clock source, ACPI idle loops), so its round trip is
 * kept near a CPUID's. The table names the same handler. */
enum exit_action exit_ioio(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	u64 e = vm->control.exit_info1;

	if (!guest_has_platform(v->guest) ||
	    (e & (IOIO_INFO_IN | IOIO_INFO_STR | IOIO_INFO_SZ32)) !=
		    (IOIO_INFO_IN | IOIO_INFO_SZ32) ||
	    (u16)(e >> 16) != PM_TIMER_PORT)
		return ioio_general(v);
	vm->save.rax = pm_timer_read(&v->guest->plat, 0, 4);
	vcpu_insn_complete(v, vm->control.exit_info2);
	return EXIT_RESUME;
}
