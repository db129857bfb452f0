/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vmcb/asid.h - the guests' address space IDs (APM vol 2 15.16),
 * one per guest, as Xen's svm/asid.c keeps them beside the VMCB. */
#ifndef MINHV_HV_VMCB_ASID_H
#define MINHV_HV_VMCB_ASID_H

#include "arch/types.h"

/* A free ASID (64 of them above the SEV range, fewer when the CPU has
 * fewer), or 0 when none. */
u32 asid_alloc(void);
/* Give back an ASID asid_alloc() returned. */
void asid_free(u32 a);

#endif
