/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/view/view.h - what a guest of each kind (enum guest_kind) sees where
 * the kinds differ: the MSR policy the exit handlers (hv/svm/exit_msr.c)
 * ask for a multiboot or Linux guest, kept out of hv/svm. (CPUID is the
 * model of hv/cpuid/, which knows the kinds itself.) */
#ifndef MINHV_HV_VIEW_VIEW_H
#define MINHV_HV_VIEW_VIEW_H

#include "arch/types.h"

struct vcpu;

/* pmu.c: 0 done, E_NOT_MINE not a PMU MSR (or not multiboot). */
int exit_msr_pmu(struct vcpu *v, u32 msr, bool wr, u64 *val);
/* linux.c: the MSRs answered for a Linux guest (0, or -EINVAL when the
 * common #GP applies). */
int linux_msr_read(struct vcpu *v, u32 msr, u64 *val);
int linux_msr_write(struct vcpu *v, u32 msr, u64 val);

#endif
