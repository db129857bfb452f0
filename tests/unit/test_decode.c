// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_decode.c - the MOV decoder (hv/emul/decode.c): each form
 * in 16-, 32- and 64-bit mode with prefixes, and bytes it must refuse; the
 * prefix scanner it shares with string I/O. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/emul/decode.h"
#include "arch/errno.h"

#define M32 INSN_MODE32
#define M64 INSN_MODE64
#define M16 INSN_MODE16

static struct insn dec_ok(enum insn_mode m, const u8 *b, unsigned n)
{
	struct insn in;

	assert_int_equal(insn_decode(b, n, m, &in), 0);
	return in;
}

#define DEC(m, ...)                                     \
	({                                              \
		static const u8 b_[] = { __VA_ARGS__ }; \
		dec_ok(m, b_, sizeof(b_));              \
	})
#define BAD(m, ...)                                                    \
	do {                                                           \
		static const u8 b_[] = { __VA_ARGS__ };                \
		struct insn in_;                                       \
		assert_int_equal(insn_decode(b_, sizeof(b_), m, &in_), \
				 -EINVAL);                             \
	} while (0)

static void check(struct insn in, unsigned len, unsigned size, bool write,
		  enum insn_kind k, unsigned reg)
{
	assert_int_equal(in.len, len);
	assert_int_equal(in.size, size);
	assert_int_equal(in.write, write);
	assert_int_equal(in.kind, k);
	assert_int_equal(in.reg, reg);
}

static void test_mov_store_load(void **s)
{
	struct insn in;

	(void)s;
	/* mov %eax,(%ebx) */
	check(DEC(M32, 0x89, 0x03), 2, 4, true, INSN_MOV_TO_MEM_REG, 0);
	/* mov 0x20(%edx),%ecx: disp8 */
	check(DEC(M32, 0x8b, 0x4a, 0x20), 3, 4, false, INSN_MOV_FROM_MEM, 1);
	/* mov %esi,0xfee000b0: mod 0 rm 5 = disp32 */
	check(DEC(M32, 0x89, 0x35, 0xb0, 0x00, 0xe0, 0xfe), 6, 4, true,
	      INSN_MOV_TO_MEM_REG, 6);
	/* mov 0x12345678(%eax,%ecx,4),%edi: SIB + disp32 */
	check(DEC(M32, 0x8b, 0xbc, 0x88, 0x78, 0x56, 0x34, 0x12), 7, 4, false,
	      INSN_MOV_FROM_MEM, 7);
	/* SIB with base 5, mod 0: disp32, no base */
	check(DEC(M32, 0x8b, 0x04, 0x8d, 0, 0, 0, 0), 7, 4, false,
	      INSN_MOV_FROM_MEM, 0);
	/* mov %dx,(%ebx): 66 */
	check(DEC(M32, 0x66, 0x89, 0x13), 3, 2, true, INSN_MOV_TO_MEM_REG, 2);
	/* mov %ah,(%ebx): high byte register without REX */
	in = DEC(M32, 0x88, 0x23);
	check(in, 2, 1, true, INSN_MOV_TO_MEM_REG, 4);
	assert_true(in.reg_high8);
	/* mov (%ebx),%cl */
	in = DEC(M32, 0x8a, 0x0b);
	check(in, 2, 1, false, INSN_MOV_FROM_MEM, 1);
	assert_false(in.reg_high8);
	/* segment overrides are ignored: mov %fs:(%eax),%eax */
	check(DEC(M32, 0x64, 0x3e, 0x8b, 0x00), 4, 4, false, INSN_MOV_FROM_MEM,
	      0);
	/* 67: 16-bit addressing, mod 0 rm 6 = disp16 */
	check(DEC(M32, 0x67, 0x8b, 0x06, 0x34, 0x12), 5, 4, false,
	      INSN_MOV_FROM_MEM, 0);
	/* 67 with mod 2 rm 0: disp16, no SIB even for rm 4 */
	check(DEC(M32, 0x67, 0x89, 0x84, 0x34, 0x12), 5, 4, true,
	      INSN_MOV_TO_MEM_REG, 0);
}

static void test_mov_64(void **s)
{
	struct insn in;

	(void)s;
	/* mov %rax,(%rdi) */
	check(DEC(M64, 0x48, 0x89, 0x07), 3, 8, true, INSN_MOV_TO_MEM_REG, 0);
	/* mov 0x10(%r8),%r9d: REX.R + REX.B */
	check(DEC(M64, 0x45, 0x8b, 0x48, 0x10), 4, 4, false, INSN_MOV_FROM_MEM,
	      9);
	/* mov %r15,0x0(%rip): RIP-relative disp32 */
	check(DEC(M64, 0x4c, 0x89, 0x3d, 1, 2, 3, 4), 7, 8, true,
	      INSN_MOV_TO_MEM_REG, 15);
	/* mov %sil,(%rax): any REX makes 4..7 SPL..DIL */
	in = DEC(M64, 0x40, 0x88, 0x30);
	check(in, 3, 1, true, INSN_MOV_TO_MEM_REG, 6);
	assert_false(in.reg_high8);
	/* 66 + REX.W: REX.W wins */
	check(DEC(M64, 0x66, 0x48, 0x8b, 0x00), 4, 8, false, INSN_MOV_FROM_MEM,
	      0);
	/* REX before a legacy prefix is ignored: 48 66 = 16-bit */
	check(DEC(M64, 0x48, 0x66, 0x8b, 0x00), 4, 2, false, INSN_MOV_FROM_MEM,
	      0);
	/* 40-4F are INC/DEC in 32-bit mode, not REX */
	BAD(M32, 0x48, 0x89, 0x07);
	/* gs: + 67 (32-bit addresses) in 64-bit mode */
	check(DEC(M64, 0x65, 0x67, 0x8b, 0x03), 4, 4, false, INSN_MOV_FROM_MEM,
	      0);
}

static void test_mov_imm(void **s)
{
	struct insn in;

	(void)s;
	/* movl $0x12345678,0x80(%ebx) */
	in = DEC(M32, 0xc7, 0x83, 0x80, 0, 0, 0, 0x78, 0x56, 0x34, 0x12);
	check(in, 10, 4, true, INSN_MOV_TO_MEM_IMM, 0);
	assert_int_equal(in.imm, 0x12345678);
	/* movb $0x5a,(%eax) */
	in = DEC(M32, 0xc6, 0x00, 0x5a);
	check(in, 3, 1, true, INSN_MOV_TO_MEM_IMM, 0);
	assert_int_equal(in.imm & 0xff, 0x5a);
	/* movw $0xbeef,(%eax) */
	in = DEC(M32, 0x66, 0xc7, 0x00, 0xef, 0xbe);
	check(in, 5, 2, true, INSN_MOV_TO_MEM_IMM, 0);
	assert_int_equal(in.imm & 0xffff, 0xbeef);
	/* movq $-1,(%rax): imm32 sign-extended */
	in = DEC(M64, 0x48, 0xc7, 0x00, 0xff, 0xff, 0xff, 0xff);
	check(in, 7, 8, true, INSN_MOV_TO_MEM_IMM, 0);
	assert_int_equal(in.imm, ~0ULL);
	/* C7 /1 is not MOV */
	BAD(M32, 0xc7, 0x08, 0, 0, 0, 0);
}

static void test_movzx_movsx_moffs(void **s)
{
	struct insn in;

	(void)s;
	/* movzbl (%eax),%edx */
	in = DEC(M32, 0x0f, 0xb6, 0x10);
	check(in, 3, 1, false, INSN_MOVZX_FROM_MEM, 2);
	assert_int_equal(in.reg_size, 4);
	/* movzwq (%rax),%r10 */
	in = DEC(M64, 0x4c, 0x0f, 0xb7, 0x10);
	check(in, 4, 2, false, INSN_MOVZX_FROM_MEM, 10);
	assert_int_equal(in.reg_size, 8);
	/* movsbw (%eax),%ax */
	in = DEC(M32, 0x66, 0x0f, 0xbe, 0x00);
	check(in, 4, 1, false, INSN_MOVSX_FROM_MEM, 0);
	assert_int_equal(in.reg_size, 2);
	/* mov 0xfee00020,%eax: A1 moffs32 */
	check(DEC(M32, 0xa1, 0x20, 0x00, 0xe0, 0xfe), 5, 4, false,
	      INSN_MOV_FROM_MEM, 0);
	/* mov %al,moffs64 */
	check(DEC(M64, 0xa2, 1, 2, 3, 4, 5, 6, 7, 8), 9, 1, true,
	      INSN_MOV_TO_MEM_ACC, 0);
	/* 67 A3: moffs16 in 32-bit mode */
	check(DEC(M32, 0x67, 0xa3, 0x00, 0x10), 4, 4, true, INSN_MOV_TO_MEM_ACC,
	      0);
}

static void test_bad(void **s)
{
	struct insn in;
	u8 b[32];

	(void)s;
	BAD(M32, 0x90); /* NOP */
	BAD(M64, 0x0f, 0x05); /* SYSCALL */
	BAD(M32, 0x0f, 0xb8, 0x00); /* not MOVZX */
	BAD(M32, 0x89, 0xc0); /* register form: no memory operand */
	BAD(M32, 0xf0, 0x89, 0x00); /* LOCK MOV */
	/* truncated: modrm, SIB, displacement, immediate, moffs, 0F */
	BAD(M32, 0x89);
	BAD(M32, 0x8b, 0x04);
	BAD(M32, 0x8b, 0x80, 0x00, 0x00);
	BAD(M32, 0xc7, 0x00, 0x01, 0x02, 0x03);
	BAD(M64, 0xa1, 1, 2, 3, 4);
	BAD(M32, 0x0f);
	BAD(M32, 0x66, 0x66);
	assert_int_equal(insn_decode(b, 0, M32, &in), -EINVAL);
	/* too many prefixes: 15 bytes of prefixes and no opcode */
	memset(b, 0x3e, sizeof(b));
	assert_int_equal(insn_decode(b, sizeof(b), M32, &in), -EINVAL);
	/* 15 bytes exactly is fine, 16 is #GP: 8 prefixes + C7 80 disp32
	 * imm32 = 18; 5 prefixes + 10 = 15. */
	memset(b, 0x3e, 5);
	memcpy(b + 5, (u8[]){ 0xc7, 0x80, 0, 0, 0, 0, 1, 0, 0, 0 }, 10);
	assert_int_equal(insn_decode(b, 15, M32, &in), 0);
	assert_int_equal(in.len, 15);
	memset(b, 0x3e, 6);
	memcpy(b + 6, (u8[]){ 0xc7, 0x80, 0, 0, 0, 0, 1, 0, 0, 0 }, 10);
	assert_int_equal(insn_decode(b, 16, M32, &in), -EINVAL);
	/* unknown mode */
	assert_int_equal(insn_decode(b, 16, (enum insn_mode)7, &in), -EINVAL);
}

/* A CPU ignores REP/REPNE on these MOVs: so does the decoder. */
static void test_rep_ignored(void **s)
{
	struct insn in;

	(void)s;
	check(DEC(M32, 0xf3, 0x89, 0x03), 3, 4, true, INSN_MOV_TO_MEM_REG, 0);
	check(DEC(M32, 0xf2, 0x8b, 0x05, 0x30, 0, 0xe0, 0xfe), 7, 4, false,
	      INSN_MOV_FROM_MEM, 0);
	/* REX after REP still counts (it is right before the opcode). */
	in = DEC(M64, 0xf3, 0x48, 0x8b, 0x03);
	check(in, 4, 8, false, INSN_MOV_FROM_MEM, 0);
	in = DEC(M32, 0xf3, 0x0f, 0xb6, 0x03); /* movzx: no F3 form */
	assert_int_equal(in.kind, INSN_MOVZX_FROM_MEM);
}

/* 16-bit code (real mode, CS.D = 0): 16-bit operands and addresses by
 * default, 66 and 67 flip them to 32; ModRM with 16-bit addressing. */
static void test_mode16(void **s)
{
	struct insn in;

	(void)s;
	/* mov [bx+si], ax */
	check(DEC(M16, 0x89, 0x00), 2, 2, true, INSN_MOV_TO_MEM_REG, 0);
	/* mov cx, [0x1234]: mod 0 rm 6 = disp16 */
	check(DEC(M16, 0x8b, 0x0e, 0x34, 0x12), 4, 2, false, INSN_MOV_FROM_MEM,
	      1);
	/* 66: mov [bp+di+0x10], edx */
	check(DEC(M16, 0x66, 0x89, 0x53, 0x10), 4, 4, true, INSN_MOV_TO_MEM_REG,
	      2);
	/* 67 66: mov eax, [0xfee00030] with a 32-bit address */
	check(DEC(M16, 0x67, 0x66, 0x8b, 0x05, 0x30, 0, 0xe0, 0xfe), 8, 4,
	      false, INSN_MOV_FROM_MEM, 0);
	/* moffs16 and imm16 */
	check(DEC(M16, 0xa1, 0x30, 0x00), 3, 2, false, INSN_MOV_FROM_MEM, 0);
	in = DEC(M16, 0xc7, 0x06, 0x80, 0x03, 0x34, 0x12);
	check(in, 6, 2, true, INSN_MOV_TO_MEM_IMM, 0);
	assert_int_equal(in.imm, 0x1234);
	/* mov cr4, eax: 32-bit operand whatever the mode */
	in = DEC(M16, 0x0f, 0x22, 0xe0);
	assert_int_equal(in.kind, INSN_MOV_TO_CR);
	assert_int_equal(in.cr, 4);
	assert_int_equal(in.size, 4);
	/* no REX in 16-bit code: 0x48 is DEC AX, not a prefix */
	BAD(M16, 0x48, 0x89, 0x03);
}

/* MOV to a control register (0F 22 /r): CR from ModRM.reg + REX.R, the
 * source from ModRM.rm + REX.B, 64 bits in 64-bit mode; mod is ignored. */
static void test_mov_to_cr(void **s)
{
	struct insn in;

	(void)s;
	in = DEC(M64, 0x0f, 0x22, 0xe7); /* mov %rdi,%cr4 */
	check(in, 3, 8, false, INSN_MOV_TO_CR, 7);
	assert_int_equal(in.cr, 4);
	in = DEC(M64, 0x41, 0x0f, 0x22, 0xd8); /* mov %r8,%cr3 */
	check(in, 4, 8, false, INSN_MOV_TO_CR, 8);
	assert_int_equal(in.cr, 3);
	in = DEC(M64, 0x44, 0x0f, 0x22, 0xc1); /* mov %rcx,%cr8 */
	check(in, 4, 8, false, INSN_MOV_TO_CR, 1);
	assert_int_equal(in.cr, 8);
	in = DEC(M32, 0x66, 0x0f, 0x22, 0x27); /* mod 0: still %edi, 32 bits */
	check(in, 4, 4, false, INSN_MOV_TO_CR, 7);
	assert_int_equal(in.cr, 4);
	/* AltMovCr8: LOCK MOV CR0 is MOV CR8 (32-bit code's only way). */
	in = DEC(M32, 0xf0, 0x0f, 0x22, 0xc3); /* lock mov %ebx,%cr0 */
	check(in, 4, 4, false, INSN_MOV_TO_CR, 3);
	assert_int_equal(in.cr, 8);
	BAD(M32, 0xf0, 0x0f, 0x22, 0xe3); /* LOCK MOV CR4: #UD */
	BAD(M32, 0xf0, 0x0f, 0xb6, 0x00); /* LOCK MOVZX: #UD */
	BAD(M64, 0x0f, 0x22); /* truncated */
	BAD(M64, 0x0f, 0x20, 0xe0); /* MOV from CR: not decoded */
}

/* The one prefix scanner: legacy prefixes of all four groups, a REX only
 * in 64-bit mode and only right before the opcode, at most 15 bytes. */
static struct insn_prefixes pf_ok(enum insn_mode m, const u8 *b, unsigned n)
{
	struct insn_prefixes p;

	memset(&p, 0x5a, sizeof(p));
	assert_int_equal(insn_prefixes(b, n, m, &p), 0);
	return p;
}

#define PF(m, ...)                                      \
	({                                              \
		static const u8 b_[] = { __VA_ARGS__ }; \
		pf_ok(m, b_, sizeof(b_));               \
	})

static void test_prefixes(void **s)
{
	struct insn_prefixes p;
	u8 b[20];

	(void)s;
	p = PF(M32, 0x90);
	assert_int_equal(p.len, 0);
	assert_false(p.opsize || p.addrsize || p.lock || p.rep || p.rex);
	assert_int_equal(p.seg, INSN_SEG_NONE);
	p = PF(M32, 0xf3, 0x67, 0x6c); /* rep insb with a16 */
	assert_int_equal(p.len, 2);
	assert_true(p.rep && p.addrsize);
	assert_false(p.opsize || p.lock);
	p = PF(M32, 0x2e, 0x36, 0x3e, 0x26, 0x64, 0x65, 0x66, 0xf0, 0x01);
	assert_int_equal(p.len, 8);
	assert_true(p.opsize && p.lock);
	assert_false(p.rep || p.addrsize);
	assert_int_equal(p.seg, 5); /* the last override wins: GS */
	/* Each override by its IOIO number: ES 0, CS 1, SS 2, DS 3, FS 4. */
	assert_int_equal(PF(M32, 0x26, 0x6e).seg, 0);
	assert_int_equal(PF(M32, 0x2e, 0x6e).seg, 1);
	assert_int_equal(PF(M32, 0x36, 0x6e).seg, 2);
	assert_int_equal(PF(M32, 0x3e, 0x6e).seg, 3);
	assert_int_equal(PF(M64, 0x64, 0x6e).seg, 4);
	p = PF(M32, 0xf2, 0x48, 0x89); /* 48 is DEC EAX outside 64-bit mode */
	assert_int_equal(p.len, 1);
	assert_true(p.rep);
	assert_int_equal(p.rex, 0);
	p = PF(M64, 0x67, 0x48, 0x89);
	assert_int_equal(p.len, 2);
	assert_int_equal(p.rex, 0x48);
	assert_true(p.addrsize);
	p = PF(M64, 0x48, 0x66, 0x89); /* REX not last: ignored */
	assert_int_equal(p.len, 2);
	assert_int_equal(p.rex, 0);
	assert_true(p.opsize);
	/* Nothing but prefixes, within n or within 15 bytes. */
	memset(b, 0x66, sizeof(b));
	assert_int_equal(insn_prefixes(b, 0, M32, &p), -EINVAL);
	assert_int_equal(insn_prefixes(b, 3, M32, &p), -EINVAL);
	b[15] = 0x90;
	assert_int_equal(insn_prefixes(b, 16, M32, &p), -EINVAL);
	b[14] = 0x90;
	p = pf_ok(M32, b, 16);
	assert_int_equal(p.len, 14);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mov_store_load),
		cmocka_unit_test(test_mov_64),
		cmocka_unit_test(test_mov_imm),
		cmocka_unit_test(test_movzx_movsx_moffs),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_mov_to_cr),
		cmocka_unit_test(test_rep_ignored),
		cmocka_unit_test(test_mode16),
		cmocka_unit_test(test_prefixes),
	};

	return cmocka_run_group_tests_name("decode", tests, NULL, NULL);
}
