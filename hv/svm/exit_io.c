/* hv/svm/exit_io.c - IOIO exits (APM vol 2, 15.10.2): writes to COM1's data
 * port become guest console output; every other port reads all-ones and
 * drops writes (counted); a foreign guest's platform devices
 * (hv/platform/ports.c) answer first. String forms use RSI/RDI as guest addresses. */
#include "hv/svm/exit.h"
#include "hv/svm/exit_decode.h"
#include "hv/guest/guest.h"
#include "hv/platform/platform.h"

#define COM1_DATA 0x3f8
#define RFLAGS_DF BIT(10)

static void port_out(struct vcpu *v, const struct ioio_info *io, u32 val)
{
	if (platform_port_out(v, io->port, io->size, val))
		return;
	if (io->port == COM1_DATA && io->size == 1) {
		char c = (char)val;

		guest_console_put(v, &c, 1);
		return;
	}
	v->stats.io_dropped++;
}

static u32 port_in(struct vcpu *v, const struct ioio_info *io)
{
	u32 val;

	if (platform_port_in(v, io->port, io->size, &val))
		return val & (0xffffffffu >> (32 - 8 * io->size));
	if (io->port != COM1_DATA)
		v->stats.io_dropped++;
	return 0xffffffffu >> (32 - 8 * io->size);
}

/* INS/OUTS: count units at RDI/RSI, checked against guest memory. */
static enum exit_action string_io(struct vcpu *v, const struct ioio_info *io)
{
	u64 count = io->rep ? v->gprs.rcx : 1;
	u64 *reg = io->in ? &v->gprs.rdi : &v->gprs.rsi;
	bool down = v->vmcb->save.rflags & RFLAGS_DF;
	u64 first, bytes;
	u8 *p;

	if (!count)
		return EXIT_RESUME;
	if (count > v->guest->mem_size / io->size)
		goto bad;
	bytes = count * io->size;
	first = down ? *reg - (bytes - io->size) : *reg;
	if (down && *reg < bytes - io->size)
		goto bad;
	if (guest_mem_range(v->guest, first, bytes, 1, (void **)&p))
		goto bad;
	for (u64 i = 0; i < count; i++) {
		u8 *u = p + (down ? bytes - (i + 1) * io->size : i * io->size);
		u32 val = 0;

		if (io->in) {
			val = port_in(v, io);
			for (unsigned b = 0; b < io->size; b++)
				u[b] = (u8)(val >> (8 * b));
		} else {
			for (unsigned b = 0; b < io->size; b++)
				val |= (u32)u[b] << (8 * b);
			port_out(v, io, val);
		}
	}
	*reg = down ? *reg - bytes : *reg + bytes;
	if (io->rep)
		v->gprs.rcx = 0;
	return EXIT_RESUME;
bad:
	guest_stop(
		v->guest, -1, true,
		"vCPU %u: string I/O on port %#x at %#llx x %llu outside guest memory",
		v->id, io->port, (unsigned long long)*reg,
		(unsigned long long)count);
	return EXIT_LEAVE;
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
		if (string_io(v, &io) == EXIT_LEAVE)
			return EXIT_LEAVE;
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
