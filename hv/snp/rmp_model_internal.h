/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/rmp_model_internal.h - the in-memory RMP's fault injection,
 * private to hv/snp/rmp_model.c and the unit tests, which arm it
 * (tests/doubles): the next `times` RMPUPDATEs of spa fail with code. */
#ifndef MINHV_HV_SNP_RMP_MODEL_INTERNAL_H
#define MINHV_HV_SNP_RMP_MODEL_INTERNAL_H

#include "arch/spinlock.h"
#include "arch/types.h"

struct rmp_model_inject {
	u64 spa;
	u32 code, times;
};
/* Both under g_rmp_model_lock, which guards the whole model. */
extern struct rmp_model_inject g_rmp_model_inject;
extern spinlock_t g_rmp_model_lock;

#endif
