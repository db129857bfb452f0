// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/fw_cfg.c - QEMU's fw_cfg interface, I/O flavour (QEMU
 * docs/specs/fw_cfg.rst): a 16-bit selector at 0x510, bytes at 0x511.
 * Items: signature "QEMU", ID (bit 0: traditional interface, no DMA),
 * RAM size and CPU count; every other item reads as zeros. */
#include "arch/fw_cfg_regs.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

static u8 le_byte(u64 v, unsigned bytes, u32 offset)
{
	return offset < bytes ? (u8)(v >> (8 * offset)) : 0;
}

u8 fw_cfg_byte(const struct platform *p, u16 key, u32 offset)
{
	switch (key) {
	case FW_CFG_SIGNATURE:
		return offset < 4 ? (u8) "QEMU"[offset] : 0;
	case FW_CFG_ID:
		return le_byte(FW_CFG_ID_TRADITIONAL, 4, offset);
	case FW_CFG_RAM_SIZE:
		return le_byte(p->ram_size, 8, offset);
	case FW_CFG_NB_CPUS:
		return le_byte(p->nr_cpus, 2, offset);
	default:
		return 0;
	}
}

u32 fw_cfg_in(struct vcpu *v, u16 port, unsigned size)
{
	struct platform *p = vcpu_platform(v);
	u32 val = 0;

	if (port == 0) /* the selector is write-only */
		return 0xffffffffu;
	/* Wider reads of the data port return that many bytes in turn. */
	for (unsigned i = 0; i < size; i++)
		val |= (u32)fw_cfg_byte(p, p->fw_cfg.key, p->fw_cfg.offset++)
		       << (8 * i);
	return val;
}

void fw_cfg_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct fw_cfg_dev *f = &vcpu_platform(v)->fw_cfg;

	(void)size;
	if (port != 0)
		return; /* data writes are ignored since QEMU 2.4 */
	f->key = (u16)val;
	f->offset = 0;
}
