// SPDX-License-Identifier: GPL-2.0-only
/* hv/emul/decode.c - decoder for the MOV forms that touch device memory:
 * legacy prefixes, REX, opcode, ModRM/SIB/displacement and immediate
 * (SDM vol 2 2.1-2.2, APM vol 3 1.2-1.4). Only lengths and operands are
 * decoded: the address itself comes from the nested page fault. Also MOV
 * to a control register, for hv/svm/exit_invalid.c. */
#include "hv/emul/decode.h"
#include "arch/errno.h"

#define REX_W 0x8
#define REX_R 0x4
#define REX_B 0x1

struct cursor {
	const u8 *buf;
	unsigned n; /* bytes available */
	unsigned pos;
};

/* Claim k more bytes; false when they are not there or the instruction
 * would pass 15 bytes. */
static bool take(struct cursor *c, unsigned k)
{
	if (c->pos + k > c->n || c->pos + k > INSN_MAX_LEN)
		return false;
	c->pos += k;
	return true;
}

static bool take_byte(struct cursor *c, u8 *b)
{
	if (!take(c, 1))
		return false;
	*b = c->buf[c->pos - 1];
	return true;
}

/* Little-endian immediate of k bytes, sign-extended to 64 bits. */
static bool take_imm(struct cursor *c, unsigned k, u64 *imm)
{
	u64 v = 0;

	if (!take(c, k))
		return false;
	for (unsigned i = 0; i < k; i++)
		v |= (u64)c->buf[c->pos - k + i] << (8 * i);
	if (k < 8 && (v & BIT(8 * k - 1)))
		v |= ~0ULL << (8 * k);
	*imm = v;
	return true;
}

/* ModRM plus SIB and displacement. Register operands (mod = 3) never
 * reach MMIO, so they are rejected. addr16: 16-bit addressing (SDM table
 * 2-1), otherwise 32/64-bit (tables 2-2, 2-3). */
static bool take_modrm(struct cursor *c, bool addr16, u8 *modrm)
{
	u8 mod, rm, sib;

	if (!take_byte(c, modrm))
		return false;
	mod = *modrm >> 6;
	rm = *modrm & 7;
	if (mod == 3)
		return false;
	if (addr16) {
		if (mod == 1)
			return take(c, 1);
		if (mod == 2 || (mod == 0 && rm == 6))
			return take(c, 2);
		return true;
	}
	if (rm == 4) {
		if (!take_byte(c, &sib))
			return false;
		if (mod == 0 && (sib & 7) == 5)
			return take(c, 4);
	}
	if (mod == 1)
		return take(c, 1);
	if (mod == 2 || (mod == 0 && rm == 5))
		return take(c, 4);
	return true;
}

/* The legacy prefixes, groups 1-4 (SDM vol 2A 2.1.1, APM vol 3 1.2). */
static bool is_legacy_prefix(u8 b)
{
	switch (b) {
	case 0xf0: /* LOCK */
	case 0xf2: /* REPNE */
	case 0xf3: /* REP */
	case 0x2e: /* segment overrides (and branch hints) */
	case 0x36:
	case 0x3e:
	case 0x26:
	case 0x64:
	case 0x65:
	case 0x66: /* operand size */
	case 0x67: /* address size */
		return true;
	default:
		return false;
	}
}

int insn_prefixes(const u8 *buf, unsigned n, enum insn_mode mode,
		  struct insn_prefixes *p)
{
	*p = (struct insn_prefixes){ .seg = INSN_SEG_NONE };
	for (unsigned i = 0; i < n && i < INSN_MAX_LEN; i++) {
		u8 b = buf[i];

		if (is_legacy_prefix(b)) {
			p->opsize |= b == 0x66;
			p->addrsize |= b == 0x67;
			p->lock |= b == 0xf0;
			p->rep |= b == 0xf2 || b == 0xf3;
			if ((b & 0xe7) == 0x26) /* 26 ES, 2E CS, 36 SS, 3E DS */
				p->seg = (b >> 3) & 3;
			else if (b == 0x64 || b == 0x65) /* FS, GS */
				p->seg = b - 0x60;
			p->rex = 0; /* a REX not right before the opcode is
				     * ignored (SDM vol 2A 2.2.1) */
			continue;
		}
		if (mode == INSN_MODE64 && (b & 0xf0) == 0x40) {
			p->rex = b;
			continue;
		}
		p->len = i;
		return 0;
	}
	return -EINVAL; /* no opcode within the bytes or 15 */
}

/* 0F 22 /r: ModRM.reg (+ REX.R) names the control register, ModRM.rm
 * (+ REX.B) the source; the operand is 64 bits in 64-bit mode, else 32,
 * whatever the prefixes (SDM vol 2B "MOV - Move to/from Control
 * Registers"). */
static int mov_to_cr(struct cursor *c, u8 rex, bool lock, enum insn_mode mode,
		     struct insn *out)
{
	u8 modrm;

	if (!take_byte(c, &modrm))
		return -EINVAL;
	out->kind = INSN_MOV_TO_CR;
	out->cr = ((modrm >> 3) & 7) | ((rex & REX_R) ? 8 : 0);
	/* AMD's AltMovCr8 (CPUID 0x80000001:ECX[4]): LOCK MOV CR0 is MOV
	 * CR8, the way 32-bit code reaches it (APM vol 3 "MOV CRn"). */
	if (lock) {
		if (out->cr)
			return -EINVAL;
		out->cr = 8;
	}
	out->reg = (modrm & 7) | ((rex & REX_B) ? 8 : 0);
	out->reg_size = out->size = mode == INSN_MODE64 ? 8 : 4; /* 16: 4 */
	out->len = c->pos;
	return 0;
}

int insn_decode(const u8 *buf, unsigned n, enum insn_mode mode,
		struct insn *out)
{
	struct cursor c = { buf, n, 0 };
	struct insn_prefixes pf;
	u8 rex, op, modrm = 0;
	unsigned osz, asz;

	*out = (struct insn){ 0 };
	if (mode != INSN_MODE32 && mode != INSN_MODE64 && mode != INSN_MODE16)
		return -EINVAL;
	/* Segment overrides change nothing: the fault already gives the
	 * GPA. LOCK on a MOV is #UD, but for LOCK MOV CR0 below (AltMovCr8);
	 * REP/REPNE on a MOV is ignored, as a CPU ignores it. */
	if (insn_prefixes(buf, n, mode, &pf))
		return -EINVAL;
	c.pos = pf.len;
	rex = pf.rex;
	if (!take_byte(&c, &op))
		return -EINVAL;
	if (pf.lock && op != 0x0f)
		return -EINVAL;
	/* 66 and 67 flip the mode's default sizes (SDM vol 1 3.6). */
	if (mode == INSN_MODE16) {
		osz = pf.opsize ? 4 : 2;
		asz = pf.addrsize ? 4 : 2;
	} else {
		osz = (rex & REX_W) ? 8 : pf.opsize ? 2 : 4;
		if (mode == INSN_MODE64)
			asz = pf.addrsize ? 4 : 8;
		else
			asz = pf.addrsize ? 2 : 4;
	}

	out->reg_size = osz;
	out->size = osz;
	switch (op) {
	case 0x88: /* MOV r/m8, r8 */
	case 0x8a: /* MOV r8, r/m8 */
		out->size = out->reg_size = 1;
		/* fall through */
	case 0x89: /* MOV r/m, r */
	case 0x8b: /* MOV r, r/m */
		if (!take_modrm(&c, asz == 2, &modrm))
			return -EINVAL;
		out->write = op == 0x88 || op == 0x89;
		out->kind = out->write ? INSN_MOV_TO_MEM_REG :
					 INSN_MOV_FROM_MEM;
		break;
	case 0xa0: /* MOV AL, moffs8 */
	case 0xa2: /* MOV moffs8, AL */
		out->size = out->reg_size = 1;
		/* fall through */
	case 0xa1: /* MOV eAX, moffs */
	case 0xa3: /* MOV moffs, eAX */
		if (!take(&c, asz))
			return -EINVAL;
		out->write = op == 0xa2 || op == 0xa3;
		out->kind = out->write ? INSN_MOV_TO_MEM_ACC :
					 INSN_MOV_FROM_MEM;
		out->reg = 0;
		out->len = c.pos;
		return 0;
	case 0xc6: /* MOV r/m8, imm8 */
	case 0xc7: /* MOV r/m, imm16/32 (sign-extended with REX.W) */
		if (op == 0xc6)
			out->size = out->reg_size = 1;
		if (!take_modrm(&c, asz == 2, &modrm) || ((modrm >> 3) & 7))
			return -EINVAL;
		if (!take_imm(&c, out->size == 8 ? 4 : out->size, &out->imm))
			return -EINVAL;
		out->write = true;
		out->kind = INSN_MOV_TO_MEM_IMM;
		out->reg = 0;
		out->len = c.pos;
		return 0;
	case 0x0f:
		if (!take_byte(&c, &op))
			return -EINVAL;
		if (op == 0x22) /* MOV CRn, r: mod is ignored (SDM vol 2B) */
			return mov_to_cr(&c, rex, pf.lock, mode, out);
		if (pf.lock ||
		    (op != 0xb6 && op != 0xb7 && op != 0xbe && op != 0xbf))
			return -EINVAL;
		if (!take_modrm(&c, asz == 2, &modrm))
			return -EINVAL;
		out->size = (op & 1) ? 2 : 1;
		out->kind = op < 0xbe ? INSN_MOVZX_FROM_MEM :
					INSN_MOVSX_FROM_MEM;
		break;
	default:
		return -EINVAL;
	}
	out->reg = ((modrm >> 3) & 7) | ((rex & REX_R) ? 8 : 0);
	/* Without any REX, byte registers 4..7 are AH, CH, DH, BH. */
	out->reg_high8 = out->reg_size == 1 && !rex && out->reg >= 4;
	out->len = c.pos;
	return 0;
}
