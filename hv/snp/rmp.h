/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/rmp.h - the one RMP interface the rest of minhv uses, with two back
 * ends chosen once at boot: the hardware instructions or an in-memory model
 * of the RMP (where the CPU lacks SNP or RMPOPT, e.g. every QEMU run). */
#ifndef MINHV_HV_SNP_RMP_H
#define MINHV_HV_SNP_RMP_H

#include "arch/rmp.h"

struct rmp_ops {
	const char *name;
	/* One RMPUPDATE on the calling CPU; returns the EAX code. */
	u32 (*update)(hpa_t spa, const struct rmp_state *st);
	/* One PSMASH; returns the EAX code. */
	u32 (*psmash)(hpa_t spa);
	/* One RMPOPT on the calling CPU; returns CF. */
	bool (*opt)(hpa_t region, u64 func);
	/* Write this core's RMPOPT_BASE (the value includes the enable bit). */
	void (*set_base)(u64 val);
	/* Model only (NULL on hardware): forget every core's optimized bit and
	 * the cached scan of these regions, so a second schedule can be
	 * measured from scratch. */
	void (*forget_opt)(const u64 *regions, u32 n);
};

extern const struct rmp_ops rmp_hw_ops;
extern const struct rmp_ops rmp_model_ops;
/* The back end in use; set once by rmp_select(). */
extern const struct rmp_ops *g_rmp;

/* Pick the back end: hardware only when SNP is enabled and RMPOPT exists. */
const struct rmp_ops *rmp_select(bool snp_enabled, bool rmpopt);

/* RMPUPDATE with the retry policy: FAIL_OVERLAP is retried (Linux does the
 * same, APM vol 3 RMPUPDATE); any other failure is returned. */
#define RMP_OVERLAP_RETRIES 1000
u32 rmp_update(hpa_t spa, const struct rmp_state *st);
/* Assign a 4 KiB or 2 MiB page to asid at gpa / make it hypervisor-owned. */
u32 rmp_assign(hpa_t spa, gpa_t gpa, u32 asid, u8 pagesize);
u32 rmp_make_hv_owned(hpa_t spa, u8 pagesize);

#endif
