// SPDX-License-Identifier: GPL-2.0-only
/* hv/vcpu/regs.c - guest general-purpose registers by their x86 encoding
 * number (SDM vol 2 table 2-2): RAX and RSP are in the VMCB save area
 * (VMRUN switches them), the others in struct svm_gprs. */
#include "hv/vcpu/vcpu.h"

u64 *vcpu_gpr(struct vcpu *v, unsigned reg)
{
	struct svm_gprs *g = &v->gprs;

	switch (reg & 15) {
	case 0:
		return &v->vmcb->save.rax;
	case 1:
		return &g->rcx;
	case 2:
		return &g->rdx;
	case 3:
		return &g->rbx;
	case 4:
		return &v->vmcb->save.rsp;
	case 5:
		return &g->rbp;
	case 6:
		return &g->rsi;
	case 7:
		return &g->rdi;
	case 8:
		return &g->r8;
	case 9:
		return &g->r9;
	case 10:
		return &g->r10;
	case 11:
		return &g->r11;
	case 12:
		return &g->r12;
	case 13:
		return &g->r13;
	case 14:
		return &g->r14;
	default:
		return &g->r15;
	}
}
