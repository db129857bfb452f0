/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/mca.h - the machine-check architecture's registers and bits (AMD APM
 * vol 2 ch. 9.3, Intel SDM vol 3B ch. 16): global MCG_* MSRs and the
 * per-bank MCi_CTL/STATUS/ADDR/MISC quadruples. Only constants. */
#ifndef MINHV_ARCH_MCA_H
#define MINHV_ARCH_MCA_H

#include "arch/types.h"

#define MSR_MCG_CAP 0x179
#define MCG_CAP_COUNT_MASK 0xffULL /* [7:0]: number of banks */
#define MCG_CAP_CTL_P BIT(8) /* MCG_CTL present */
#define MSR_MCG_STATUS 0x17a
#define MCG_STATUS_RIPV BIT(0) /* restart at the pushed RIP is safe */
#define MCG_STATUS_EIPV BIT(1) /* the pushed RIP is where it happened */
#define MCG_STATUS_MCIP BIT(2) /* #MC in progress: a second one shuts down */
#define MSR_MCG_CTL 0x17b

/* Bank i: CTL, STATUS, ADDR, MISC at 0x400 + 4i (legacy MCA addresses,
 * which Zen's SMCA keeps as aliases of its banks). */
#define MSR_MC_CTL(i) (0x400 + 4 * (i))
#define MSR_MC_STATUS(i) (0x401 + 4 * (i))
#define MSR_MC_ADDR(i) (0x402 + 4 * (i))
#define MSR_MC_MISC(i) (0x403 + 4 * (i))
/* The legacy range ends at 0x47f: 32 banks. */
#define MCA_MAX_BANKS 32

#define MCI_STATUS_VAL BIT(63) /* the bank holds an error */
#define MCI_STATUS_OVER BIT(62) /* more than one: an error was lost */
#define MCI_STATUS_UC BIT(61) /* uncorrected */
#define MCI_STATUS_EN BIT(60) /* signalled as #MC (enabled in MCi_CTL) */
#define MCI_STATUS_MISCV BIT(59) /* MCi_MISC valid */
#define MCI_STATUS_ADDRV BIT(58) /* MCi_ADDR valid */
#define MCI_STATUS_PCC BIT(57) /* processor context corrupt */

#endif
