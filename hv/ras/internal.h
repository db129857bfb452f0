/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/ras/internal.h - what the RAS files share: the machine-check record,
 * the counters, and log lines that are safe from NMI and #MC context. */
#ifndef MINHV_HV_RAS_INTERNAL_H
#define MINHV_HV_RAS_INTERNAL_H

#include "arch/msr.h"
#include "hv/ras/ras.h"

#define MCE_SHOWN 8 /* banks a record keeps (others are only counted) */

struct mce_bank {
	u32 bank;
	u64 status, addr, misc;
};

/* What the banks held at one machine check. */
struct mce_rec {
	u64 mcg_status;
	u32 nvalid; /* banks with MCi_STATUS.VAL */
	u32 nshown; /* of which kept in b[] */
	struct mce_bank b[MCE_SHOWN];
	bool pcc; /* some bank says the processor context is corrupt */
};

extern u32 g_mca_banks; /* from MCG_CAP on the boot CPU; 0 without MCA */
extern u32 g_mce_host, g_mce_guest, g_nmi_unknown;

/* Read MCG_STATUS and every bank with an error into r; with clear, zero
 * those MCi_STATUS and then MCG_STATUS (MCIP last, as Linux does). */
void mce_collect(struct mce_rec *r, bool clear);
/* Log r as one line (what, this CPU, MCG_STATUS) and one per bank. */
void mce_log(const struct mce_rec *r, int level, const char *what);

/* The NMI handler from ras_boot_init() until ipi_init() takes over. */
void ras_nmi_unknown_trap(struct trap_frame *f);

/* Print the lines ras_emit() queued (normal context only). */
void ras_flush(void);
extern u32 g_ras_dropped; /* lines that found the queue full */

#endif
