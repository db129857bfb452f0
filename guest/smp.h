/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/smp.h - vCPU identity and running a function on other vCPUs
 * (HC_VCPU_START the first time, then HC_VCPU_OFFLINE/ONLINE to park and
 * wake), plus the per-vCPU state the guest keeps. */
#ifndef MINHV_GUEST_SMP_H
#define MINHV_GUEST_SMP_H

#include "lib/types.h"
#include "guest/except.h"
#include "include/minhv/guest_layout.h"

extern const struct hv_boot_info *boot_info;

/* What this guest keeps for each vCPU. */
struct vcpu_local {
	struct jmpbuf catch_jb; /* catch_exception() resumes here */
	struct jmpbuf test_jb; /* an unexpected exception ends the scenario */
	volatile bool catch_armed, test_armed;
	int caught_vector;
	u64 caught_error;
};

u32 smp_id(void); /* this vCPU's id, from HC_VCPU_INFO */
u32 smp_nr(void); /* vCPUs this guest has */
struct vcpu_local *this_vcpu(void);

/* Run fn(arg) on vCPU id (not the caller). Returns 0 or -HC_E* from
 * the hypercall. vcpu_wait() waits until fn has returned there. */
int vcpu_run(u32 id, void (*fn)(void *), void *arg);
/* False when it has not finished after VCPU_WAIT_TSC cycles. */
bool vcpu_wait(u32 id);
#define VCPU_WAIT_TSC 20000000000ULL

/* Run fn(arg) on every vCPU, the caller included, and wait for all.
 * Returns how many vCPUs ran it. */
u32 on_all_vcpus(void (*fn)(void *), void *arg);

#endif
