// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_io.c - IOIO exits (APM vol 2, 15.10.2): a foreign guest's
 * platform devices first (hv/platform/ports.c); otherwise writes to COM1's
 * data port become guest console output; every other port reads all-ones
 * and drops writes (counted). String forms use RSI/RDI/RCX at the address
 * size (EXITINFO1[9:7], else decoded) and move at most IO_CHUNK bytes an
 * exit. */
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/msr.h"
#include "arch/uart_regs.h"
#include "hv/emul/decode.h"
#include "hv/svm/exit.h"
#include "hv/vmcb/exit_decode.h"
#include "hv/guest/guest.h"
#include "hv/platform/platform.h"

static void port_out(struct vcpu *v, const struct ioio_info *io, u32 val)
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

static u32 port_in(struct vcpu *v, const struct ioio_info *io)
{
	u32 val;

	if (platform_port_in(v, io->port, io->size, &val) != E_NOT_MINE)
		return val & (0xffffffffu >> (32 - 8 * io->size));
	if (io->port != UART_COM1_PORT)
		v->stats.io_dropped++;
	return 0xffffffffu >> (32 - 8 * io->size);
}

/* Bytes one exit moves at most: a REP of megabytes to a slow UART must not
 * hold the CPU for seconds. The rest runs when the guest re-executes the
 * instruction (RIP stays), as a CPU does after an interrupt in a REP. */
#define IO_CHUNK 4096

/* Address size from the prefixes at RIP (hv/emul's scanner), for CPUs
 * that leave EXITINFO1[9:7] clear (QEMU): the code segment's default,
 * flipped by a 67 prefix (APM vol 3, 1.2.3). The instruction bytes are
 * read as guest physical, like the string operands: the guest maps itself
 * 1:1. */
static unsigned addr_bits_decode(struct vcpu *v)
{
	const struct vmcb_save *s = &v->vmcb->save;
	bool lm = (s->efer & EFER_LMA) && (s->cs.attrib & SEG_ATTR_L);
	unsigned def = lm ? 64 : (s->cs.attrib & SEG_ATTR_D) ? 32 : 16;
	u64 len = v->vmcb->control.exit_info2 - s->rip;
	struct insn_prefixes p;
	const u8 *b;

	if (len > INSN_MAX_LEN ||
	    guest_mem_range(v->guest, s->cs.base + s->rip, len, 1, (void **)&b))
		return def;
	/* 16- and 32-bit code scan alike: only REX depends on the mode. */
	if (insn_prefixes(b, len, lm ? INSN_MODE64 : INSN_MODE32, &p) ||
	    !p.addrsize)
		return def;
	return def == 32 ? 16 : 32;
}

/* A register written with the address size: 16 bits merge, 32 bits
 * zero-extend (as any 32-bit register write in 64-bit mode). */
static void reg_set(u64 *reg, u64 val, unsigned bits)
{
	if (bits == 16)
		*reg = (*reg & ~0xffffULL) | (val & 0xffff);
	else if (bits == 32)
		*reg = val & 0xffffffffULL;
	else
		*reg = val;
}

enum str_result { STR_DONE, STR_MORE, STR_BAD };

/* INS/OUTS: up to IO_CHUNK bytes at RDI/RSI, masked to the address size,
 * checked against guest memory. */
static enum str_result string_io(struct vcpu *v, const struct ioio_info *io)
{
	unsigned bits = io->addr_bits ? io->addr_bits : addr_bits_decode(v);
	u64 mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	u64 *reg = io->in ? &v->gprs.rdi : &v->gprs.rsi;
	u64 count = io->rep ? v->gprs.rcx & mask : 1;
	u64 addr = *reg & mask, n, first, bytes;
	bool down = v->vmcb->save.rflags & RFLAGS_DF;
	u8 *p;

	if (!count)
		return STR_DONE;
	n = count < IO_CHUNK / io->size ? count : IO_CHUNK / io->size;
	bytes = n * io->size;
	first = down ? addr - (bytes - io->size) : addr;
	if (down && addr < bytes - io->size)
		goto bad;
	if (guest_mem_range(v->guest, first, bytes, 1, (void **)&p))
		goto bad;
	for (u64 i = 0; i < n; i++) {
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
	reg_set(reg, down ? addr - bytes : addr + bytes, bits);
	if (io->rep)
		reg_set(&v->gprs.rcx, count - n, bits);
	return count > n ? STR_MORE : STR_DONE;
bad:
	guest_stop(
		v->guest, -1, true,
		"vCPU %u: string I/O on port %#x at %#llx x %llu (%u-bit addresses) outside guest memory",
		v->id, io->port, (unsigned long long)addr,
		(unsigned long long)count, bits);
	return STR_BAD;
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
