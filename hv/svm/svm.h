/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/svm.h - SVM on this machine: can it be used (and if not, exactly
 * why) and per-CPU enable (EFER.SVME, VM_HSAVE_PA); hv_main calls
 * svm_init() before the default run (hv/run/run.h). */
#ifndef MINHV_HV_SVM_SVM_H
#define MINHV_HV_SVM_SVM_H

#include "arch/svm.h"
#include "arch/types.h"
#include "hv/features.h"

struct vcpu;
struct runq;

/* Per-CPU SVM state, hung off struct percpu's svm slot. */
struct svm_cpu {
	hpa_t hsave; /* VM_HSAVE_PA page (APM 15.30.4) */
	/* For the VMRUN stub: the VMSAVE of the host's hidden state, and the
	 * SPEC_CTRL and RSB work around VMRUN (set when a vCPU starts). */
	struct svm_host host;
	bool enabled;
	struct vcpu *vcpu; /* the vCPU this CPU runs, if any */
	struct runq *rq; /* its run queue, once its loop ran (hv/sched) */
};

/* Why SVM cannot be used, from CPUID (f) and VM_CR; NULL when it can.
 * Pure: buf receives the sentence. */
const char *svm_unusable_reason(const struct features *f, bool have_vm_cr,
				u64 vm_cr, char *buf, size_t n);
/* Boot CPU, once: decide, log the SVM feature set, enable on every
 * online CPU. 0, or -ENODEV with the reason in svm_why_not(). */
int svm_init(void);
const char *svm_why_not(void);
/* This CPU's state (NULL when SVM is not enabled here). */
struct svm_cpu *svm_this_cpu(void);
/* Enable SVM on the calling CPU: 0, -ENODEV or -ENOMEM (reason printed). */
int svm_cpu_enable(void);

#endif
