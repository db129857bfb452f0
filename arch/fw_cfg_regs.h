/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/fw_cfg_regs.h - QEMU's firmware configuration interface, I/O port
 * flavour (QEMU docs/specs/fw_cfg.rst): ports and item selectors. Only
 * constants, shared by the host's probe (arch/fw_cfg.c) and the fw_cfg
 * device a guest sees (hv/platform/fw_cfg.c). */
#ifndef MINHV_ARCH_FW_CFG_REGS_H
#define MINHV_ARCH_FW_CFG_REGS_H

#define FW_CFG_PORT_SEL 0x510 /* 16-bit selector, write-only */
#define FW_CFG_PORT_DATA 0x511 /* the selected item's bytes, in turn */
#define FW_CFG_PORTS 2

#define FW_CFG_SIGNATURE 0x00 /* "QEMU" */
#define FW_CFG_ID 0x01 /* interface features */
#define FW_CFG_ID_TRADITIONAL 0x01 /* bit 0: the port interface (no DMA) */
#define FW_CFG_RAM_SIZE 0x03
#define FW_CFG_NB_CPUS 0x05

#endif
