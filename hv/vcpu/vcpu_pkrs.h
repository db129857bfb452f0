/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vcpu/vcpu_pkrs.h - each vCPU's IA32_PKRS (protection keys for
 * supervisor pages, Intel SDM vol 3A 4.6.2), in the hardware MSR while the
 * vCPU runs on its CPU and 0 there otherwise. */
#ifndef MINHV_HV_VCPU_VCPU_PKRS_H
#define MINHV_HV_VCPU_VCPU_PKRS_H

#include "arch/types.h"

struct vcpu;

/* When the vCPU's loop starts on its CPU (and after an in-loop reset,
 * INIT-SIPI): its value into the hardware MSR. */
void vcpu_pkrs_enter(struct vcpu *v);
/* When the loop ends: 0 into the hardware MSR, so nothing reaches the next
 * vCPU or guest on this CPU. */
void vcpu_pkrs_exit(struct vcpu *v);
/* The intercepted RDMSR/WRMSR of 0x6E1, on the vCPU's CPU: 0, or -EINVAL
 * for #GP (no PKS, or bits 63:32 set on a write). */
int vcpu_pkrs_read(struct vcpu *v, u64 *val);
int vcpu_pkrs_write(struct vcpu *v, u64 val);

#endif
