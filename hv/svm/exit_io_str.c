// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_io_str.c - INS and OUTS (APM vol 3 INS, OUTS; vol 2 15.10.2):
 * RSI/RDI/RCX at the address size (EXITINFO1[9:7], else decoded), the
 * segment's base, the guest's page tables, at most IO_CHUNK bytes an
 * exit; the port side is exit_io.c's. */
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/msr.h"
#include "hv/emul/decode.h"
#include "hv/emul/walk.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "hv/svm/exit.h"
#include "hv/svm/exit_io.h"

/* Bytes one exit moves at most: a REP of megabytes to a slow UART must not
 * hold the CPU for seconds. The rest runs when the guest re-executes the
 * instruction (RIP stays), as a CPU does after an interrupt in a REP. */
#define IO_CHUNK 4096

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

/* The guest's linear memory a page at a time: the last page translated
 * is kept, so a chunk walks the page tables once per page it touches. */
struct str_mem {
	const struct guest *g;
	struct gmem m;
	struct gpaging p;
	u64 base, mask; /* the segment's base, the address-size mask */
	bool lm; /* 64-bit mode: linear addresses are 64-bit, canonical */
	u64 page; /* linear page of host, when host is set */
	u8 *host;
	u64 la; /* the linear address of the last byte looked up */
};

/* The instruction's prefixes (hv/emul's one scanner), for CPUs that
 * leave EXITINFO1's address size or segment clear (QEMU; no decode
 * assists): bytes fetched at CS.base + RIP through the guest's page
 * tables, up to the instruction's length (EXITINFO2 is the next RIP).
 * *bits: the code's default address size (def), flipped by a 67 prefix
 * (APM vol 3, 1.2.3); *seg: the last segment override, else DS (3). */
static void str_prefixes(struct vcpu *v, struct str_mem *sm, unsigned def,
			 unsigned *bits, u8 *seg)
{
	const struct vmcb_save *s = &v->vmcb->save;
	u64 len = v->vmcb->control.exit_info2 - s->rip;
	u64 ip = def == 64 ? s->rip : s->cs.base + (s->rip & sm->mask);
	struct insn_prefixes p;
	u8 b[INSN_MAX_LEN];
	int n = len <= sizeof(b) ? gfetch(&sm->m, &sm->p,
					  def == 64 ? ip : ip & 0xffffffffULL,
					  b, (unsigned)len) :
				   0;

	*bits = def;
	*seg = 3; /* DS */
	/* 16- and 32-bit code scan alike: only REX depends on the mode. */
	if (n <= 0 || insn_prefixes(b, (unsigned)n,
				    def == 64 ? INSN_MODE64 : INSN_MODE32, &p))
		return;
	if (p.addrsize)
		*bits = def == 32 ? 16 : 32;
	if (p.seg != INSN_SEG_NONE)
		*seg = p.seg;
}

/* The host byte at offset off of the segment, or NULL with *err: -EINVAL
 * for a non-canonical address in 64-bit mode (#GP, APM vol 2 5.3.1),
 * -EFAULT when the guest's tables do not map it (#PF), -ERANGE when they
 * map it outside guest RAM and device memory (guest_phys_range()). */
static u8 *str_at(struct str_mem *sm, u64 off, int *err)
{
	unsigned top = (sm->p.cr4 & CR4_LA57) ? 56 : 47;
	u64 la = sm->base + (off & sm->mask);
	gpa_t g;

	if (!sm->lm)
		la &= 0xffffffffULL;
	sm->la = la;
	if (sm->lm && (u64)((s64)(la << (63 - top)) >> (63 - top)) != la) {
		*err = -EINVAL;
		return NULL;
	}
	if (!sm->host || (la & ~(PAGE_SIZE - 1)) != sm->page) {
		void *host;

		*err = gwalk(&sm->m, &sm->p, la, &g);
		/* Guest RAM, or a device's memory the NPT maps like RAM
		 * (pc-testdev's, which kvm-unit-tests' emulator reads into). */
		if (!*err && guest_phys_range(sm->g, g.v & ~(PAGE_SIZE - 1),
					      PAGE_SIZE, &host))
			*err = -ERANGE;
		if (*err)
			return NULL;
		sm->page = la & ~(PAGE_SIZE - 1);
		sm->host = host;
	}
	return sm->host + (la & (PAGE_SIZE - 1));
}

/* INS/OUTS: up to IO_CHUNK bytes at ES:rDI / seg:rSI. The offset is the
 * register masked to the address size, the linear address that plus the
 * segment's base (only FS and GS have one in 64-bit mode), translated
 * through the guest's page tables a page at a time (AUDIT D1): page 0 is
 * RAM like any other page. An unmapped page is the #PF the CPU raises
 * there, after the elements before it are done; a non-canonical address
 * in 64-bit mode the #GP. */
enum str_result string_io(struct vcpu *v, const struct ioio_info *io)
{
	struct vmcb_save *s = &v->vmcb->save;
	struct str_mem sm = { .g = v->guest,
			      .m = { v->guest->mem_host, v->guest->mem_size },
			      .p = gpaging_of(v->vmcb),
			      .lm = (s->efer & EFER_LMA) &&
				    (s->cs.attrib & SEG_ATTR_L) };
	const struct vmcb_seg *segs = &s->es; /* ES CS SS DS FS GS in order */
	unsigned bits = io->addr_bits, size = io->size;
	u8 seg = io->seg;
	u64 *reg = io->in ? &v->gprs.rdi : &v->gprs.rsi;
	s64 step = (s->rflags & RFLAGS_DF) ? -(s64)size : (s64)size;
	u64 count, off, n, i;
	int err = 0;

	/* EXITINFO1's segment comes with decode assists (APM vol 2 15.33);
	 * its address size (A16/A32/A64) is clear only under QEMU. */
	if (!bits || !g_features.decode_assists) {
		/* The code's own sizes: 64, or CS.D in protected mode. */
		unsigned b = sm.lm ? 64 :
			     ((s->cr0 & CR0_PE) && !(s->rflags & RFLAGS_VM) &&
			      (s->cs.attrib & SEG_ATTR_D)) ?
				     32 :
				     16;

		sm.mask = b == 64 ? ~0ULL : (1ULL << b) - 1; /* IP's width */
		str_prefixes(v, &sm, b, &b, &seg);
		if (!bits)
			bits = b;
	}
	if (io->in || seg > 5)
		seg = 0; /* INS writes ES:rDI, no override (APM vol 3 INS) */
	sm.mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	sm.base = sm.lm && seg < 4 ? 0 : segs[seg].base;
	count = io->rep ? v->gprs.rcx & sm.mask : 1;
	off = *reg & sm.mask;
	n = count < IO_CHUNK / size ? count : IO_CHUNK / size;
	for (i = 0; i < n; i++, off += (u64)step) {
		u8 *p[4];
		u32 val = 0;
		unsigned k;

		for (k = 0; k < size && (p[k] = str_at(&sm, off + k, &err));
		     k++)
			;
		if (k < size)
			break;
		if (io->in)
			val = port_in(v, io);
		for (k = 0; k < size; k++)
			if (io->in)
				*p[k] = (u8)(val >> (8 * k));
			else
				val |= (u32)*p[k] << (8 * k);
		if (!io->in)
			port_out(v, io, val);
	}
	reg_set(reg, off, bits);
	if (io->rep)
		reg_set(&v->gprs.rcx, count - i, bits);
	if (!err)
		return count > n ? STR_MORE : STR_DONE;
	if (err == -ERANGE) {
		guest_stop(
			v->guest, -1, true,
			"vCPU %u: string I/O on port %#x at %#llx reaches no guest RAM",
			v->id, io->port, (unsigned long long)sm.la);
		return STR_BAD;
	}
	/* #PF: not present, W for INS, U at CPL 3 (APM vol 2 8.4.2); or
	 * #GP(0). RIP stays on the instruction. */
	if (err == -EFAULT)
		vmcb_set_cr2(v->vmcb, sm.la);
	vcpu_inject_exception(v, err == -EFAULT ? VEC_PF : VEC_GP, true,
			      err != -EFAULT ? 0 :
					       (io->in ? 2u : 0u) |
						       (s->cpl == 3 ? 4u : 0u));
	return STR_MORE;
}
