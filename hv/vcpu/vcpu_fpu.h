/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vcpu/vcpu_fpu.h - each vCPU's x87/SSE/AVX state, XCR0 and DR0-DR3,
 * none of which VMRUN/#VMEXIT switch (APM vol 2 15.5.1, 15.6): put in
 * around a vCPU's run on its CPU, saved and replaced by a clean state
 * after, so nothing reaches the next guest on that CPU. */
#ifndef MINHV_HV_VCPU_VCPU_FPU_H
#define MINHV_HV_VCPU_VCPU_FPU_H

#include "arch/cr.h" /* CR4_OSFXSR, CR4_OSXSAVE */
#include "arch/types.h"
#include "arch/xcr0.h" /* XCR0_* */

struct features;
struct vcpu;

/* What the host enables and saves: the user components it knows how to
 * keep apart (AMX needs XFD/permission set-up and is left off). */
#define XCR0_HOST_KNOWN                                                \
	(XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_BNDREGS | XCR0_BNDCSR | \
	 XCR0_AVX512 | XCR0_PKRU)
#define XCR0_RESET XCR0_X87 /* SDM vol 3 10.1.1: XCR0 after RESET/INIT */

/* Offsets in the XSAVE/FXSAVE image (SDM vol 1 10.5.1, 13.4). */
#define FXSAVE_FCW 0
#define FXSAVE_MXCSR 24
#define XSAVE_HDR 512 /* XSTATE_BV at +0, XCOMP_BV at +8 */
#define FCW_INIT 0x037f
#define MXCSR_INIT 0x1f80

enum fpu_mode { FPU_NONE, FPU_FXSAVE, FPU_XSAVE };

struct fpu_host {
	enum fpu_mode mode;
	u64 xcr0; /* XCR0 of the host, and every bit a guest may enable */
	u32 size; /* bytes of a vCPU's save area */
};

extern struct fpu_host g_fpu;

/* Boot CPU, once: decide mode, host XCR0 and area size from *f. */
void fpu_boot(const struct features *f);
/* Every CPU that runs vCPUs: CR4.OSFXSR/OSXSAVE, host XCR0, clean
 * registers and DR0-DR3 = 0. */
void fpu_cpu_init(void);
/* SDM vol 2 XSETBV (#GP conditions) and vol 1 13.3: may a guest write val
 * to XCR[index], given the host's XCR0? CPL is the caller's business. */
bool xcr0_valid(u64 host_xcr0, u32 index, u64 val);

/* Pages a vCPU's save area takes (page-aligned, so 64-byte aligned). */
u32 vcpu_fpu_pages(void);
/* A fresh vCPU: init state in the area (XSTATE_BV 0 = every component in
 * its init state; FCW/MXCSR init for FXRSTOR), XCR0 and DRs at reset. */
void vcpu_fpu_init(struct vcpu *v, void *area);
/* Around a vCPU's run on its CPU (hv/svm/vcpu_run.c): its state into the
 * hardware; then saved, and the hardware back to the host's clean state. */
void vcpu_fpu_enter(struct vcpu *v);
void vcpu_fpu_exit(struct vcpu *v);
/* XSETBV from the guest, already validated: its XCR0 now. */
void vcpu_fpu_set_xcr0(struct vcpu *v, u64 val);

#endif
