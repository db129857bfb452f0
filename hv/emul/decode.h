/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/emul/decode.h - x86 decoder for the memory-operand MOV forms that
 * compilers emit for device registers, and MOV to a control register
 * (SDM vol 2 ch. 2; APM vol 3 ch. 1). */
#ifndef MINHV_HV_EMUL_DECODE_H
#define MINHV_HV_EMUL_DECODE_H

#include "arch/types.h"

#define INSN_MAX_LEN 15 /* longer is #GP (SDM 2.3.11, APM 1.1) */

enum insn_mode {
	INSN_MODE32, /* protected mode, CS.D=1: 32-bit operands/addresses */
	INSN_MODE64, /* long mode, CS.L=1: 32-bit operands, 64-bit addresses */
	INSN_MODE16, /* real mode, or CS.D=0: 16-bit operands/addresses */
};

enum insn_kind {
	INSN_MOV_TO_MEM_REG, /* 88, 89: mem <- reg */
	INSN_MOV_TO_MEM_IMM, /* C6 /0, C7 /0: mem <- imm */
	INSN_MOV_FROM_MEM, /* 8A, 8B, A0, A1: reg <- mem */
	INSN_MOVZX_FROM_MEM, /* 0F B6, 0F B7: reg <- zero-extended mem */
	INSN_MOVSX_FROM_MEM, /* 0F BE, 0F BF: reg <- sign-extended mem */
	INSN_MOV_TO_MEM_ACC, /* A2, A3 (moffs): mem <- AL/eAX/RAX */
	INSN_MOV_TO_CR, /* 0F 22: CR<cr> <- reg (no memory access) */
};

struct insn {
	u8 len; /* bytes, prefixes included */
	u8 size; /* memory access: 1, 2, 4 or 8 bytes */
	u8 reg_size; /* width of the register operand (MOVZX: wider) */
	bool write; /* memory is written */
	enum insn_kind kind;
	/* Register operand, 0..15 in SDM order (RAX, RCX, RDX, RBX, RSP, RBP,
	 * RSI, RDI, R8..R15). With reg_high8, 4..7 mean AH, CH, DH, BH. */
	u8 reg;
	bool reg_high8;
	u8 cr; /* INSN_MOV_TO_CR: the control register, 0..15 */
	u64 imm; /* INSN_MOV_TO_MEM_IMM: sign-extended to 64 bits */
};

/* The prefixes in front of an opcode (SDM vol 2A 2.1.1, 2.2.1; APM vol 3
 * 1.2): legacy prefixes of the four groups in any order, then, in 64-bit
 * mode, a REX that counts only right before the opcode. The one prefix
 * scanner: the MOV decoder below and string I/O's address size and
 * segment (hv/svm/exit_io_str.c) use it. */
struct insn_prefixes {
	u8 len; /* bytes before the opcode, REX included */
	bool opsize; /* 66 */
	bool addrsize; /* 67 */
	bool lock; /* F0 */
	bool rep; /* F2 or F3 */
	u8 rex; /* the REX right before the opcode, else 0 */
	/* The last segment override, numbered as EXITINFO1 of IOIO (ES 0,
	 * CS 1, SS 2, DS 3, FS 4, GS 5); INSN_SEG_NONE without one. */
	u8 seg;
};
#define INSN_SEG_NONE 0xff

/* Scan the prefixes at buf[0..n). mode only says whether 40-4F are REX
 * (INSN_MODE64) or opcodes (16- and 32-bit code alike). 0, or -EINVAL when
 * no opcode byte follows them within n bytes and 15. */
int insn_prefixes(const u8 *buf, unsigned n, enum insn_mode mode,
		  struct insn_prefixes *p);

/* Decode the instruction at buf[0..n). A REP/REPNE prefix on these MOVs
 * is ignored, as a CPU ignores it. 0, or -EINVAL for anything that is
 * not one of the forms above (register operands of the MOVs that access
 * memory included, LOCK but on MOV CR0), is truncated (n too small), or is longer than
 * 15 bytes. Never reads past buf[n-1]. */
int insn_decode(const u8 *buf, unsigned n, enum insn_mode mode,
		struct insn *out);

#endif
