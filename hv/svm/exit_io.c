// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_io.c - IOIO exits (APM vol 2, 15.10.2): a foreign guest's
 * platform devices first (hv/platform/ports.c); otherwise writes to COM1's
 * data port become guest console output; every other port reads all-ones
 * and drops writes (counted). String forms use RSI/RDI/RCX at the address
 * size (EXITINFO1[9:7], else decoded), the segment's base and the guest's
 * page tables, and move at most IO_CHUNK bytes an exit. */
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/msr.h"
#include "arch/uart_regs.h"
#include "hv/svm/exit.h"
#include "hv/emul/walk.h"
#include "hv/features.h"
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

/* The instruction's prefixes, for CPUs that leave EXITINFO1's address
 * size or segment clear (QEMU; no decode assists): bytes fetched at CS.base + RIP through
 * the guest's page tables (hv/emul/walk.h), up to the instruction's
 * length (EXITINFO2 is the next RIP). *bits: the code segment's default
 * address size, flipped by a 67 prefix (APM vol 3, 1.2.3); *seg: the last
 * segment override (ES 0, CS 1, SS 2, DS 3, FS 4, GS 5, as EXITINFO1),
 * else DS. */
static void str_prefixes(struct vcpu *v, const struct gmem *m,
			 const struct gpaging *p, unsigned *bits, u8 *seg)
{
	static const u8 seg_of[8] = { [0x26 >> 3 & 7] = 0,
				      [0x2e >> 3 & 7] = 1,
				      [0x36 >> 3 & 7] = 2,
				      [0x3e >> 3 & 7] = 3 };
	const struct vmcb_save *s = &v->vmcb->save;
	bool lm = (s->efer & EFER_LMA) && (s->cs.attrib & SEG_ATTR_L);
	bool pm = (s->cr0 & CR0_PE) && !(s->rflags & RFLAGS_VM);
	unsigned def = lm ? 64 : (pm && (s->cs.attrib & SEG_ATTR_D)) ? 32 : 16;
	u64 ip = lm ? s->rip : s->rip & (def == 32 ? 0xffffffffULL : 0xffff);
	u64 len = v->vmcb->control.exit_info2 - s->rip;
	u8 b[15];
	int n;

	*bits = def;
	*seg = 3; /* DS */
	if (len > sizeof(b))
		return;
	n = gfetch(m, p, lm ? ip : (s->cs.base + ip) & 0xffffffffULL, b,
		   (unsigned)len);
	for (int i = 0; i < n; i++) {
		u8 c = b[i];

		if (c == 0x67)
			*bits = def == 32 ? 16 : 32;
		else if ((c & 0xe7) == 0x26) /* 26, 2E, 36, 3E */
			*seg = seg_of[c >> 3 & 7];
		else if (c == 0x64 || c == 0x65)
			*seg = c == 0x64 ? 4 : 5;
		else if (!(c == 0x66 || c == 0xf2 || c == 0xf3 || c == 0xf0 ||
			   (lm && (c & 0xf0) == 0x40)))
			break;
	}
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

/* The guest's linear memory a page at a time: the last page translated
 * is kept, so a chunk walks the page tables once per page it touches. */
struct str_mem {
	struct gmem m;
	struct gpaging p;
	u64 page; /* linear page of host, when host is set */
	u8 *host;
};

/* The host byte behind linear address la, or NULL with *err: -EFAULT
 * when the guest's tables do not map it, -ERANGE when they lie outside
 * guest RAM or map it to something that is not RAM. */
static u8 *str_byte(struct str_mem *sm, u64 la, int *err)
{
	gpa_t g;

	if (sm->host && (la & ~(PAGE_SIZE - 1)) == sm->page)
		return sm->host + (la & (PAGE_SIZE - 1));
	*err = gwalk(&sm->m, &sm->p, la, &g);
	if (*err)
		return NULL;
	g.v &= ~(PAGE_SIZE - 1);
	if (g.v >= sm->m.size) {
		*err = -ERANGE;
		return NULL;
	}
	sm->page = la & ~(PAGE_SIZE - 1);
	sm->host = (u8 *)sm->m.host + g.v;
	return sm->host + (la & (PAGE_SIZE - 1));
}

/* A 64-bit linear address whose top bits copy bit 47 (bit 56 with
 * 5-level paging); any other is #GP (APM vol 2 5.3.1). */
static bool canonical(const struct gpaging *p, u64 la)
{
	unsigned top = (p->cr4 & CR4_LA57) ? 56 : 47;

	return (u64)((s64)(la << (63 - top)) >> (63 - top)) == la;
}

/* INS/OUTS: up to IO_CHUNK bytes at ES:RDI / seg:RSI. The offset is the
 * register masked to the address size, the linear address that plus the
 * segment's base (only FS and GS have one in 64-bit mode), translated
 * through the guest's page tables a page at a time (AUDIT D1): page 0 is
 * RAM like any other page. An unmapped page is the #PF the CPU raises
 * there, after the elements before it are done; a non-canonical one in
 * 64-bit mode the #GP. */
static enum str_result string_io(struct vcpu *v, const struct ioio_info *io)
{
	struct vmcb_save *s = &v->vmcb->save;
	struct str_mem sm = { { v->guest->mem_host, v->guest->mem_size },
			      gpaging_of(v->vmcb),
			      0,
			      NULL };
	const struct vmcb_seg *segs = &s->es; /* ES CS SS DS FS GS in order */
	bool lm = (s->efer & EFER_LMA) && (s->cs.attrib & SEG_ATTR_L);
	unsigned bits = io->addr_bits;
	u8 seg = io->seg;
	u64 mask, *reg, count, addr, base, n, i;
	bool down = s->rflags & RFLAGS_DF;
	int err = 0;

	/* EXITINFO1's segment comes with decode assists (APM vol 2 15.33);
	 * its address size (A16/A32/A64) is clear only under QEMU. */
	if (!bits || !g_features.decode_assists) {
		unsigned b;

		str_prefixes(v, &sm.m, &sm.p, &b, &seg);
		if (!bits)
			bits = b;
	}
	if (io->in || seg > 5)
		seg = 0; /* INS writes ES:rDI, no override (APM vol 3 INS) */
	mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	reg = io->in ? &v->gprs.rdi : &v->gprs.rsi;
	count = io->rep ? v->gprs.rcx & mask : 1;
	addr = *reg & mask;
	base = lm && seg < 4 ? 0 : segs[seg].base;
	if (!count)
		return STR_DONE;
	n = count < IO_CHUNK / io->size ? count : IO_CHUNK / io->size;
	for (i = 0; i < n; i++) {
		u64 off = down ? addr - i * io->size : addr + i * io->size;
		u8 *b[4];
		u32 val = 0;

		for (unsigned k = 0; k < io->size; k++) {
			u64 la = base + ((off + k) & mask);

			if (lm && !canonical(&sm.p, la)) {
				err = -EINVAL; /* #GP(0), APM vol 2 5.3.1 */
				goto stop;
			}
			b[k] = str_byte(&sm, lm ? la : la & 0xffffffffULL,
					&err);
			if (!b[k])
				goto stop;
		}
		if (io->in) {
			val = port_in(v, io);
			for (unsigned k = 0; k < io->size; k++)
				*b[k] = (u8)(val >> (8 * k));
		} else {
			for (unsigned k = 0; k < io->size; k++)
				val |= (u32)*b[k] << (8 * k);
			port_out(v, io, val);
		}
	}
stop:
	reg_set(reg, down ? addr - i * io->size : addr + i * io->size, bits);
	if (io->rep)
		reg_set(&v->gprs.rcx, count - i, bits);
	if (err == -EINVAL) {
		vcpu_inject_exception(v, VEC_GP, true, 0);
		return STR_MORE;
	}
	if (err == -EFAULT) {
		/* #PF: not present, W for INS, U at CPL 3 (APM vol 2 8.4.2);
		 * RIP stays on the instruction. */
		u64 off = down ? addr - i * io->size : addr + i * io->size;

		s->cr2 = base + (off & mask);
		if (!lm)
			s->cr2 &= 0xffffffffULL;
		vmcb_mark_dirty(v->vmcb, VMCB_CLEAN_CR2);
		vcpu_inject_exception(v, VEC_PF, true,
				      (io->in ? BIT(1) : 0) |
					      (s->cpl == 3 ? BIT(2) : 0));
		return STR_MORE;
	}
	if (err) {
		guest_stop(
			v->guest, -1, true,
			"vCPU %u: string I/O on port %#x at %#llx (%u-bit addresses, segment base %#llx) reaches no guest RAM",
			v->id, io->port,
			(unsigned long long)((down ? addr - i * io->size :
						     addr + i * io->size) &
					     mask),
			bits, (unsigned long long)base);
		return STR_BAD;
	}
	return count > n ? STR_MORE : STR_DONE;
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
