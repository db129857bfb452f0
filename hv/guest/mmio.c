// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/mmio.c - emulation of one MMIO access: instruction bytes (decode
 * assists or a guest page walk), decode, device callback, destination
 * register with x86 partial-register rules, RIP advance. */
#include "hv/guest/mmio.h"
#include "arch/cr.h"
#include "arch/msr.h"
#include "hv/emul/walk.h"
#include "arch/errno.h"
#include "hv/guest/guest.h"
#include "hv/vcpu/vcpu.h"
#include "lib/string.h"

static u64 size_mask(unsigned size)
{
	return size >= 8 ? ~0ULL : BIT(8 * size) - 1;
}

/* 64-bit code segment, 32-bit code (CS.D), or 16-bit code: real mode,
 * virtual-8086 mode or a protected-mode segment with CS.D clear. */
static int code_mode(const struct vmcb *vm, enum insn_mode *mode)
{
	if (!(vm->save.cr0 & CR0_PE) || (vm->save.rflags & RFLAGS_VM))
		*mode = INSN_MODE16;
	else if ((vm->save.efer & EFER_LMA) &&
		 (vm->save.cs.attrib & SEG_ATTR_L))
		*mode = INSN_MODE64;
	else if (vm->save.cs.attrib & SEG_ATTR_D)
		*mode = INSN_MODE32;
	else
		*mode = INSN_MODE16;
	return 0;
}

/* The instruction pointer's width in mode: RIP, EIP or IP. */
static u64 ip_mask(enum insn_mode mode)
{
	return mode == INSN_MODE64 ? ~0ULL :
	       mode == INSN_MODE32 ? 0xffffffffULL :
				     0xffffULL;
}

/* The instruction at la decoded before (struct vcpu_insn_cache), when
 * the same bytes are still there: fetched again, just those, through the
 * guest's page tables as they are now, and compared. Cheaper than the
 * decode by the bytes it does not fetch and the decoder it skips. */
static bool cached_decode(struct vcpu *v, const struct gmem *m,
			  const struct gpaging *p, u64 la, enum insn_mode mode,
			  struct mmio_bytes *b, struct insn *in)
{
	const struct vcpu_insn_cache *c = &v->insn_cache;
	gpa_t g;

	if (!c->len || c->la != la || c->mode != mode || c->cr3 != p->cr3 ||
	    c->cr0 != p->cr0 || c->cr4 != p->cr4 || c->efer != p->efer)
		return false;
	/* Within one page (the usual case): one translation and the bytes
	 * compared in place, each read once; across a page, fetched as the
	 * decode would. */
	if ((la & (PAGE_SIZE - 1)) + c->len <= PAGE_SIZE) {
		if (gwalk(m, p, la, &g) || g.v >= m->size ||
		    m->size - g.v < c->len)
			return false;
		for (unsigned i = 0; i < c->len; i++)
			if (__atomic_load_n(&m->host[g.v + i],
					    __ATOMIC_RELAXED) != c->bytes[i])
				return false;
		memcpy(b->b, c->bytes, c->len);
	} else if (gfetch(m, p, la, b->b, c->len) != c->len ||
		   memcmp(b->b, c->bytes, c->len)) {
		return false;
	}
	b->n = c->len;
	*in = c->in;
	return true;
}

static void cache_decode(struct vcpu *v, const struct gpaging *p, u64 la,
			 enum insn_mode mode, const struct mmio_bytes *b,
			 const struct insn *in)
{
	struct vcpu_insn_cache *c = &v->insn_cache;

	if (!in->len || in->len > b->n)
		return;
	c->len = 0; /* never half written: len last */
	c->la = la;
	c->cr0 = p->cr0;
	c->cr3 = p->cr3;
	c->cr4 = p->cr4;
	c->efer = p->efer;
	c->mode = (u8)mode;
	memcpy(c->bytes, b->b, in->len);
	c->in = *in;
	c->len = in->len;
}

/* Decode from the decode-assist bytes when the CPU stored some (QEMU TCG
 * never does; hardware writes the count, possibly 0, on every NPF), else
 * from guest memory, through the per-vCPU cache of the last decode. The
 * VMCB count is consumed so that it never goes stale. */
static int fetch_decode(struct vcpu *v, enum insn_mode mode,
			struct mmio_bytes *b, struct insn *in)
{
	struct vmcb *vm = v->vmcb;
	struct gmem m;
	struct gpaging p;
	u64 la;
	int n;

	n = vm->control.insn_len;
	vm->control.insn_len = 0;
	if (n > INSN_MAX_LEN)
		n = INSN_MAX_LEN;
	if (n) {
		b->n = n;
		for (int i = 0; i < n; i++)
			b->b[i] = vm->control.insn_bytes[i];
		if (!insn_decode(b->b, b->n, mode, in))
			return 0;
	}
	m = (struct gmem){ v->guest->mem_host, v->guest->mem_size };
	p = gpaging_of(vm);
	la = mode == INSN_MODE64 ?
		     vm->save.rip :
		     (vm->save.cs.base + (vm->save.rip & ip_mask(mode))) &
			     0xffffffffULL;
	if (cached_decode(v, &m, &p, la, mode, b, in))
		return 0;
	n = gfetch(&m, &p, la, b->b, INSN_MAX_LEN);
	if (n < 0)
		return n;
	b->n = n;
	n = insn_decode(b->b, b->n, mode, in);
	if (!n)
		cache_decode(v, &p, la, mode, b, in);
	return n;
}

static u64 reg_value(struct vcpu *v, const struct insn *in)
{
	u64 r;

	if (in->reg_high8)
		return (*vcpu_gpr(v, in->reg - 4) >> 8) & 0xff;
	r = *vcpu_gpr(v, in->reg);
	return r & size_mask(in->reg_size);
}

/* x86 register write rules: 8/16-bit writes keep the other bits, 32-bit
 * writes zero bits 63:32 (SDM vol 1 3.4.1.1). */
static void reg_store(struct vcpu *v, const struct insn *in, u64 val)
{
	u64 *r;

	if (in->reg_high8) {
		r = vcpu_gpr(v, in->reg - 4);
		*r = (*r & ~0xff00ULL) | ((val & 0xff) << 8);
		return;
	}
	r = vcpu_gpr(v, in->reg);
	if (in->reg_size >= 4)
		*r = val & size_mask(in->reg_size);
	else
		*r = (*r & ~size_mask(in->reg_size)) |
		     (val & size_mask(in->reg_size));
}

int emul_decode_at_rip(struct vcpu *v, struct mmio_bytes *b, struct insn *in)
{
	enum insn_mode mode;
	int ret;

	b->n = 0;
	ret = code_mode(v->vmcb, &mode);
	return ret ? ret : fetch_decode(v, mode, b, in);
}

int mmio_emulate(struct vcpu *v, gpa_t gpa, const struct mmio_region *r,
		 struct mmio_bytes *seen)
{
	struct mmio_bytes local;
	struct mmio_bytes *b = seen ? seen : &local;
	enum insn_mode mode;
	struct insn in;
	u64 off, val;
	int ret;

	b->n = 0;
	ret = code_mode(v->vmcb, &mode);
	if (ret)
		return ret;
	ret = fetch_decode(v, mode, b, &in);
	if (ret)
		return ret;
	if (in.kind == INSN_MOV_TO_CR) /* no memory operand: not an MMIO */
		return -EINVAL;
	if (gpa.v < r->base.v || gpa.v - r->base.v >= r->size ||
	    in.size > r->size - (gpa.v - r->base.v))
		return -EINVAL;
	off = gpa.v - r->base.v;

	if (in.write) {
		val = in.kind == INSN_MOV_TO_MEM_IMM ? in.imm :
						       reg_value(v, &in);
		ret = r->ops->write(r->dev, off, in.size,
				    val & size_mask(in.size));
		if (ret)
			return ret;
	} else {
		val = 0;
		ret = r->ops->read(r->dev, off, in.size, &val);
		if (ret)
			return ret;
		val &= size_mask(in.size);
		if (in.kind == INSN_MOVSX_FROM_MEM &&
		    (val & BIT(8 * in.size - 1)))
			val |= ~size_mask(in.size);
		reg_store(v, &in, val);
	}
	/* EIP wraps at 4 GiB in 32-bit code, IP at 64 KiB in 16-bit code. */
	vcpu_insn_complete(v, (v->vmcb->save.rip + in.len) & ip_mask(mode));
	return 0;
}
