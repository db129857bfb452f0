/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/view/view.h - what a guest of each kind (enum guest_kind) sees where
 * the kinds differ: the policy the exit handlers (hv/svm/exit_cpuid.c,
 * exit_msr.c) ask for a multiboot or Linux guest, kept out of hv/svm. */
#ifndef MINHV_HV_VIEW_VIEW_H
#define MINHV_HV_VIEW_VIEW_H

#include "arch/types.h"

struct cpuid_regs;
struct vcpu;

/* pmu.c: 0 done, -EPERM #GP, 1 not a PMU MSR (or not multiboot). */
int exit_msr_pmu(struct vcpu *v, u32 msr, bool wr, u64 *val);
/* linux.c: a Linux guest's CPUID view (features hidden) and the MSRs
 * answered for it (0, or -EPERM when the common #GP applies). */
void linux_cpuid_filter(u32 leaf, u32 sub, struct cpuid_regs *r);
int linux_msr_read(struct vcpu *v, u32 msr, u64 *val);
int linux_msr_write(struct vcpu *v, u32 msr, u64 val);

#endif
