// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/rmp.c - back-end selection and the RMPUPDATE retry policy, shared by
 * both back ends (APM vol 3, RMPUPDATE return codes). */
#include "hv/snp/rmp.h"

const struct rmp_ops *g_rmp;

const struct rmp_ops *rmp_select(bool snp_enabled, bool rmpopt)
{
	g_rmp = snp_enabled && rmpopt ? &rmp_hw_ops : &rmp_model_ops;
	return g_rmp;
}

u32 rmp_update(hpa_t spa, const struct rmp_state *st)
{
	u32 rc;
	unsigned tries = 0;

	do
		rc = g_rmp->update(spa, st);
	while (rc == RMP_FAIL_OVERLAP && ++tries < RMP_OVERLAP_RETRIES);
	return rc;
}

u32 rmp_assign(hpa_t spa, gpa_t gpa, u32 asid, u8 pagesize)
{
	struct rmp_state st = {
		.gpa = gpa.v, .assigned = 1, .pagesize = pagesize, .asid = asid
	};

	return rmp_update(spa, &st);
}

u32 rmp_make_hv_owned(hpa_t spa, u8 pagesize)
{
	struct rmp_state st = { .pagesize = pagesize };

	return rmp_update(spa, &st);
}
