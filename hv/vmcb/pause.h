/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vmcb/pause.h - the PAUSE intercept policy (APM vol 2, 15.14.4):
 * decided once per guest from g_features, the options and whether its
 * vCPUs share CPUs; and the dynamic filter window (KVM's grow on a PAUSE
 * exit, shrink when the vCPU is scheduled in again). Pure, so unit tests
 * cover every CPUID/option combination. docs/SVM.md, docs/SCHED.md. */
#ifndef MINHV_HV_VMCB_PAUSE_H
#define MINHV_HV_VMCB_PAUSE_H

#include "arch/types.h"
#include "hv/features.h"

/* Xen's seed values, measured on EPYC 7401 (docs/SVM.md). */
#define PAUSE_COUNT_DEFAULT 4000
#define PAUSE_THRESHOLD_DEFAULT 1000
/* KVM's pause_filter_count_grow and _max (arch/x86/kvm/svm/svm.c). */
#define PAUSE_WINDOW_GROW 2
#define PAUSE_WINDOW_MAX 0xffff

/* What the options ask; -1 = auto for the numbers. */
enum pause_req { PAUSE_REQ_AUTO, PAUSE_REQ_ON, PAUSE_REQ_OFF };
struct pause_opts {
	s32 count;
	s32 threshold;
	enum pause_req intercept;
};

struct pause_policy {
	unsigned mode; /* HV_PAUSE_* (include/minhv/guest_layout.h) */
	bool intercept;
	/* pause_intercept=auto on shared CPUs: the intercept follows the
	 * CPU's queue, on only while another vCPU could have the CPU
	 * (hv/svm/sched_cpu.c, vcpu_pause_follow()). */
	bool follow;
	/* The filter values in the VMCB, intercepted or not (so that
	 * pause_intercept=on uses what auto would): 0 without the filter. */
	u16 count, threshold;
	char why[200]; /* one line for the console */
};

/* shared: the guest has more vCPUs than CPUs. auto intercepts PAUSE only
 * then (a PAUSE exit can give the CPU to another vCPU); on always, off
 * never. Without PauseFilter an intercepted PAUSE always exits. */
void pause_policy_decide(const struct features *f, const struct pause_opts *o,
			 bool shared, struct pause_policy *p);

/* KVM's __grow_ple_window() with its defaults: the count doubled on a
 * PAUSE exit, at most PAUSE_WINDOW_MAX (base 0: every PAUSE exits, and
 * stays so). */
u16 pause_window_grow(u16 cur, u16 base);
/* KVM's __shrink_ple_window() with shrink 0: back to the base when the
 * vCPU is scheduled in again. */
static inline u16 pause_window_shrink(u16 cur, u16 base)
{
	(void)cur;
	return base;
}

#endif
