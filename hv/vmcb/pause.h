/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vmcb/pause.h - the PAUSE intercept policy (APM vol 2, 15.14.4):
 * decided once from g_features and the options, pure so unit tests
 * cover every CPUID/option combination. */
#ifndef MINHV_HV_VMCB_PAUSE_H
#define MINHV_HV_VMCB_PAUSE_H

#include "arch/types.h"
#include "hv/features.h"

/* Xen's seed values, measured on EPYC 7401 (docs/SVM.md). */
#define PAUSE_COUNT_DEFAULT 4000
#define PAUSE_THRESHOLD_DEFAULT 1000

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
	u16 count, threshold;
	char why[160]; /* one line for the console */
};

void pause_policy_decide(const struct features *f, const struct pause_opts *o,
			 struct pause_policy *p);

#endif
