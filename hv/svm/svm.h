/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/svm.h - SVM on this machine: can it be used (and if not, exactly
 * why), per-CPU enable (EFER.SVME, VM_HSAVE_PA), and the default run. */
#ifndef MINHV_HV_SVM_H
#define MINHV_HV_SVM_H

#include "arch/types.h"
#include "hv/features.h"

struct vcpu;

/* Per-CPU SVM state, hung off struct percpu's svm slot. */
struct svm_cpu {
	hpa_t hsave; /* VM_HSAVE_PA page (APM 15.30.4) */
	hpa_t host_vmcb; /* VMSAVE of the host's hidden state */
	bool enabled;
	struct vcpu *vcpu; /* the vCPU this CPU runs, if any */
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

struct guest;
struct guest_params;

/* hv_main: run the built-in guest and report KTAP. Returns 0 when
 * everything passed or was skipped, -1 on a failure. */
int svm_run_builtin(void);
/* The same for any ELF64 image (hv_main passes boot_info's), with tests as
 * the guest's scenario filter. When the guest could be created, *ran (if
 * not NULL) receives its parameters; otherwise ran->image is NULL. */
int svm_run_guest_image(const char *name, const void *img, u64 size,
			const char *tests, struct guest_params *ran);
/* Run a created guest to its stop (vCPU 0 on this CPU) and wait until no
 * vCPU runs; the caller reads the result and calls guest_destroy(). */
void svm_guest_run(struct guest *g);
/* initrd= from the ESP, for a foreign guest (set before the run). */
extern const void *g_boot_initrd;
extern u64 g_boot_initrd_size;
/* guest_create() + svm_guest_run(): 0, or guest_create()'s error. */
int svm_guest_run_once(const struct guest_params *p, struct guest **out);

#endif
