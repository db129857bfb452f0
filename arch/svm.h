/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/svm.h - AMD SVM instruction primitives (APM vol 2, 15.5-15.6):
 * the VMRUN stub and VMLOAD/VMSAVE/STGI/CLGI/INVLPGA. Code is in
 * arch/svm.asm; the unit tests assemble it against the CPU double
 * (tests/doubles/svm_insn.inc, fake_svm.c) and run its stub. */
#ifndef MINHV_ARCH_SVM_H
#define MINHV_ARCH_SVM_H

#include "arch/msr.h"
#include "arch/types.h"

/* What the stub switches in software: the guest GPRs VMRUN does not (RAX,
 * RSP, RIP live in the VMCB), and the guest's SPEC_CTRL in the software
 * swap (no V_SPEC_CTRL). The offsets are used by arch/svm.asm: keep both
 * in sync. */
struct svm_gprs {
	u64 rbx; /* 0x00 */
	u64 rcx; /* 0x08 */
	u64 rdx; /* 0x10 */
	u64 rsi; /* 0x18 */
	u64 rdi; /* 0x20 */
	u64 rbp; /* 0x28 */
	u64 r8; /* 0x30 */
	u64 r9; /* 0x38 */
	u64 r10; /* 0x40 */
	u64 r11; /* 0x48 */
	u64 r12; /* 0x50 */
	u64 r13; /* 0x58 */
	u64 r14; /* 0x60 */
	u64 r15; /* 0x68 */
	u64 spec_ctrl; /* 0x70: in the MSR while the guest runs (SPEC_SWAP) */
};
_Static_assert(offsetof(struct svm_gprs, rdi) == 0x20, "asm offset");
_Static_assert(offsetof(struct svm_gprs, r15) == 0x68, "asm offset");
_Static_assert(offsetof(struct svm_gprs, spec_ctrl) == 0x70, "asm offset");

/* What the stub needs of this CPU's host, one per CPU (hv/svm/svm.h). */
struct svm_host {
	hpa_t vmcb; /* 0x00: a VMSAVE of the host's hidden state */
	u64 spec_ctrl; /* 0x08: the host's SPEC_CTRL (with SPEC_SWAP) */
	u64 flags; /* 0x10: SVM_HOST_* */
};
_Static_assert(offsetof(struct svm_host, spec_ctrl) == 0x08, "asm offset");
_Static_assert(offsetof(struct svm_host, flags) == 0x10, "asm offset");
/* Software SPEC_CTRL swap: the guest's value in before VMRUN, the host's
 * back before STGI, each written only when the two differ. */
#define SVM_HOST_SPEC_SWAP BIT(0)
/* 32 CALLs into the return stack buffer right after #VMEXIT, before any
 * RET (when the host is not protected by AutoIBRS). */
#define SVM_HOST_RSB_FILL BIT(1)
_Static_assert(MSR_SPEC_CTRL == 0x48, "arch/svm.asm's MSR_SPEC_CTRL");

/* CLGI; the guest's SPEC_CTRL (SPEC_SWAP); STI; VMLOAD guest; load guest
 * GPRs; VMRUN; VMSAVE guest; store guest GPRs; VMLOAD host; the RSB fill
 * (RSB_FILL); the host's SPEC_CTRL (SPEC_SWAP); STGI. Returns after one
 * #VMEXIT. Call with IF=0; returns with IF=1. VMRUN runs with host IF=1:
 * with V_INTR_MASKING the host IF gates physical interrupts in the guest
 * (APM 15.21.1), so they exit (INTR) and are taken by the host's IDT on
 * host state, at the STGI: everything before it (host SPEC_CTRL above
 * all) is back by then. host->vmcb must hold a VMSAVE of this CPU's host
 * state (FS/GS/TR/LDTR, KernelGSBase, STAR/LSTAR/CSTAR/SFMASK,
 * SYSENTER_*), APM 15.5.2. */
void svm_vmrun(hpa_t vmcb, struct svm_gprs *gprs, const struct svm_host *host);
void svm_vmload(hpa_t vmcb);
void svm_vmsave(hpa_t vmcb);
void svm_stgi(void);
void svm_clgi(void);
void svm_invlpga(u64 va, u32 asid);

#endif
