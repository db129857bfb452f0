// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_svm.c - SVM instructions from the guest (VMRUN,
 * VMLOAD, VMSAVE, STGI, CLGI, INVLPGA, SKINIT) all raise #UD in it. */
#include "guest/except.h"
#include "guest/scenarios/scenarios.h"

#define INSN(name, bytes)                                                     \
	static void name(void *unused)                                        \
	{                                                                     \
		(void)unused;                                                 \
		__asm__ volatile(bytes ::"a"(0x1000UL), "c"(0UL) : "memory"); \
	}

/* Encoded as bytes: the assembler may not know SKINIT's operands. */
INSN(do_vmrun, ".byte 0x0f, 0x01, 0xd8")
INSN(do_vmload, ".byte 0x0f, 0x01, 0xda")
INSN(do_vmsave, ".byte 0x0f, 0x01, 0xdb")
INSN(do_stgi, ".byte 0x0f, 0x01, 0xdc")
INSN(do_clgi, ".byte 0x0f, 0x01, 0xdd")
INSN(do_skinit, ".byte 0x0f, 0x01, 0xde")
INSN(do_invlpga, ".byte 0x0f, 0x01, 0xdf")

static const struct {
	const char *name;
	void (*fn)(void *);
} insns[] = {
	{ "VMRUN", do_vmrun },	   { "VMLOAD", do_vmload },
	{ "VMSAVE", do_vmsave },   { "STGI", do_stgi },
	{ "CLGI", do_clgi },	   { "SKINIT", do_skinit },
	{ "INVLPGA", do_invlpga },
};

static void svm_body(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(insns); i++) {
		int vec = catch_exception(insns[i].fn, NULL, NULL);

		report(vec == UD_VECTOR, "%s raised %s, want #UD",
		       insns[i].name,
		       vec == NO_EXCEPTION ? "nothing" :
					     exception_name((unsigned)vec));
	}
}

const struct scenario scn_hostile_svm = { "hostile_svm", "hostile", NULL,
					  svm_body, SCN_MANUAL };
