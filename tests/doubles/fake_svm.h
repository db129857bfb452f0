/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/fake_svm.h - a test double for the SVM instructions of the
 * VMRUN stub: arch/svm.asm assembled with tests/doubles/svm_insn.inc calls
 * fake_svm_insn() for each privileged instruction, which records it in
 * fake_cpu's event trace (tests/doubles/fake_cpu.h) and acts on the fake
 * CPU, so the unit tests run the real stub and check its order. */
#ifndef MINHV_TESTS_DOUBLES_FAKE_SVM_H
#define MINHV_TESTS_DOUBLES_FAKE_SVM_H

#include "arch/types.h"

/* The registers at the instruction, as svm_insn.inc's FAKE macro pushed them
 * (r15 pushed last, so first here). A hook may change them: they are
 * what the stub has after the instruction. */
struct fake_svm_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rbx, rdx, rcx,
		rax;
};
_Static_assert(sizeof(struct fake_svm_regs) == 15 * 8, "15 pushes");

/* Kept in step with tests/doubles/svm_insn.inc's FAKE numbers. */
enum fake_svm_op {
	FAKE_CLGI,
	FAKE_STGI,
	FAKE_STI,
	FAKE_CLI,
	FAKE_VMLOAD,
	FAKE_VMSAVE,
	FAKE_VMRUN,
	FAKE_WRMSR,
	FAKE_RSB_FILL,
};

/* Called from the stub (SysV ABI, 16-byte aligned stack). */
void fake_svm_insn(int op, struct fake_svm_regs *r);

/* The guest's run: called at VMRUN with the registers the stub loaded
 * (the guest's); what it leaves in *r is the guest's state at #VMEXIT
 * (RAX excepted: #VMEXIT restores the host's). NULL: the guest changes
 * nothing. */
extern void (*fake_vmrun_hook)(struct fake_svm_regs *r);
/* GIF as the stub left it (CLGI clears, STGI sets; 1 at reset), and
 * SPEC_CTRL as it was at the last STGI, when an NMI held during the guest
 * would be taken (~0 if the MSR does not exist). */
extern bool fake_gif;
extern u64 fake_spec_ctrl_at_stgi;
void fake_svm_reset(void);

#endif
