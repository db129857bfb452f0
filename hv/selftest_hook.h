/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/selftest_hook.h - the fixed points at which production code hands
 * control to the self-test table: declared here, at the bottom, so that
 * hv_main, the default run and the run loop name no test and include
 * nothing of hv/selftest, which sits above everything it tests and
 * implements selftest_run() (hv/selftest/table.c, also in SELFTEST=0). */
#ifndef MINHV_HV_SELFTEST_HOOK_H
#define MINHV_HV_SELFTEST_HOOK_H

#include "arch/types.h"

struct boot_info;
struct guest;
struct guest_params;

/* The fixed points, in boot order. */
enum selftest_stage {
	ST_AFTER_SMP, /* hv_main: APs online, boot checks printed */
	ST_AFTER_MTRR, /* hv_main: mtrr_init() ran (rc in mtrr_init_rc) */
	ST_AFTER_PARK, /* hv_main: every AP parked, before any guest */
	ST_BEFORE_GUEST, /* hv_main: may narrow guest_tests for the guest */
	ST_GUEST_CREATED, /* hv/run/run.c: guest created, not yet run */
	ST_VCPU_START, /* hv/svm/vcpu_run.c: a vCPU's first VMRUN is next */
	ST_GUEST_STOPPED, /* hv/run/run.c: guest stopped, not yet destroyed */
	ST_AFTER_GUEST, /* hv_main: the default guest is gone */
	ST_AFTER_SNP, /* hv_main: snp_init() ran (rc in snp_init_rc) */
	ST_NR
};

/* What a stage hands its tests; each stage fills the fields it names. */
struct selftest_ctx {
	const struct boot_info *bi;
	u64 tsc_hv_main; /* rdtsc() on entry to hv_main */
	u64 tsc; /* ST_VCPU_START: now */
	bool bench; /* bench=1 */
	const char *tests; /* the tests= option */
	const char *guest_tests; /* the default guest's filter (may narrow) */
	int mtrr_init_rc;
	int snp_init_rc;
	struct guest *guest; /* ST_GUEST_CREATED, ST_GUEST_STOPPED */
	/* ST_AFTER_GUEST: the default guest's parameters; NULL when it never
	 * ran (no SVM, or it could not be created). */
	const struct guest_params *guest_params;
};

/* Run every table entry of stage, in table order. */
void selftest_run(enum selftest_stage stage, struct selftest_ctx *ctx);

#endif
