/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/fw.h - SEV firmware steps of SNP guest teardown (SEV-SNP firmware
 * ABI, pub. 56860: SNP_DECOMMISSION, page reclaim). Placeholders until the
 * PSP mailbox driver exists (minhv has none yet); their place in the teardown
 * sequence is fixed here. */
#ifndef MINHV_HV_SNP_FW_H
#define MINHV_HV_SNP_FW_H

#include "arch/types.h"

/* SNP_DECOMMISSION of the guest context bound to asid. */
int snp_fw_decommission(u32 asid);
/* Reclaim firmware-owned (immutable) pages of the guest: context page,
 * VMSA, ... Returns pages leaked. */
int snp_fw_reclaim_pages(u32 asid);

#endif
