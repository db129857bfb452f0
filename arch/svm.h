/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/svm.h - AMD SVM instruction primitives (APM vol 2, 15.5-15.6):
 * the VMRUN stub and VMLOAD/VMSAVE/STGI/CLGI/INVLPGA. Code is in
 * arch/svm.asm. Unit tests use only struct svm_gprs: no module they
 * link calls the instructions. */
#ifndef MINHV_ARCH_SVM_H
#define MINHV_ARCH_SVM_H

#include "arch/types.h"

/* Guest GPRs that VMRUN does not switch (RAX, RSP, RIP live in the VMCB).
 * The offsets are used by arch/svm.asm: keep both in sync. */
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
};
_Static_assert(offsetof(struct svm_gprs, rdi) == 0x20, "asm offset");
_Static_assert(offsetof(struct svm_gprs, r15) == 0x68, "asm offset");

/* CLGI; STI; VMLOAD guest; load guest GPRs; VMRUN; VMSAVE guest; store
 * guest GPRs; VMLOAD host; STGI. Returns after one #VMEXIT. Call with IF=0.
 * VMRUN runs with host IF=1: with V_INTR_MASKING the host IF gates
 * physical interrupts in the guest (APM 15.21.1), so they exit (INTR) and
 * are taken by the host's IDT on host state: svm_vmrun() returns with IF=0
 * (the caller enables interrupts once it may take them), svm_vmrun_sti()
 * with IF=1 (taken at its STGI).
 * host_vmcb must hold a VMSAVE of this CPU's host state (FS/GS/TR/LDTR,
 * KernelGSBase, STAR/LSTAR/CSTAR/SFMASK, SYSENTER_*), APM 15.5.2. */
void svm_vmrun(hpa_t vmcb, struct svm_gprs *gprs, hpa_t host_vmcb);
void svm_vmrun_sti(hpa_t vmcb, struct svm_gprs *gprs, hpa_t host_vmcb);
void svm_vmload(hpa_t vmcb);
void svm_vmsave(hpa_t vmcb);
void svm_stgi(void);
void svm_clgi(void);
void svm_invlpga(u64 va, u32 asid);

#endif
