// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/fw.c - placeholders for the firmware steps of teardown (pub. 56860
 * SNP_DECOMMISSION); no PSP driver yet, so nothing firmware-owned exists. */
#include "hv/snp/fw.h"
#include "hv/log.h"

int snp_fw_decommission(u32 asid)
{
	pr_debug("snp: asid %u: SNP_DECOMMISSION skipped (no PSP driver yet)\n",
		 asid);
	return 0;
}

int snp_fw_reclaim_pages(u32 asid)
{
	(void)asid; /* no firmware pages are created without the PSP driver */
	return 0;
}
