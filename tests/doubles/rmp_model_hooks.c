// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/rmp_model_hooks.c - fault injection into the in-memory
 * RMP for the unit tests. */
#include "hv/snp/rmp_model_internal.h"
#include "tests/doubles/state_hooks.h"

void rmp_model_fail_next(hpa_t spa, u32 code, u32 times)
{
	spin_lock(&g_rmp_model_lock);
	g_rmp_model_inject = (struct rmp_model_inject){
		.spa = spa.v,
		.code = code,
		.times = times,
	};
	spin_unlock(&g_rmp_model_lock);
}
