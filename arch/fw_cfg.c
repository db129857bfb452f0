// SPDX-License-Identifier: GPL-2.0-only
/* arch/fw_cfg.c - QEMU fw_cfg over legacy I/O ports (docs/specs/fw_cfg.rst
 * in QEMU): select an item at 0x510, read its bytes from 0x511. */
#include "arch/fw_cfg.h"
#include "arch/cpu.h"

void fw_cfg_read(u16 key, void *buf, u32 n)
{
	u8 *p = buf;

	outw(FW_CFG_PORT_SEL, key);
	for (u32 i = 0; i < n; i++)
		p[i] = inb(FW_CFG_PORT_DATA);
}

bool fw_cfg_present(void)
{
	u8 sig[4];

	fw_cfg_read(FW_CFG_SIGNATURE, sig, 4);
	return sig[0] == 'Q' && sig[1] == 'E' && sig[2] == 'M' && sig[3] == 'U';
}
