/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/fw_cfg.h - QEMU's firmware configuration interface (I/O ports
 * 0x510/0x511): how minhv tells that it runs under QEMU. */
#ifndef MINHV_ARCH_FW_CFG_H
#define MINHV_ARCH_FW_CFG_H

#include "arch/fw_cfg_regs.h" /* ports and item keys (FW_CFG_NB_CPUS...) */
#include "arch/types.h"

bool fw_cfg_present(void);
/* Read n bytes of item key into buf (little-endian items). */
void fw_cfg_read(u16 key, void *buf, u32 n);

#endif
