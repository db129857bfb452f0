// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic_mmio.c - xAPIC MMIO front end (SDM 11.4.1): each
 * register is the first 4 bytes of a 16-byte slot. Reads of 1, 2, 4 or 8
 * bytes inside a slot get those bytes of it (the rest of a slot reads 0),
 * as KVM and QEMU serve byte reads; a write is the aligned 32-bit store the
 * SDM defines, and other writes are dropped (KVM does the same: smaller
 * stores are model-specific). Outside xAPIC mode the page is not decoded
 * (reads all ones, writes dropped). */
#include "arch/errno.h"
#include "hv/vlapic/vlapic.h"

#define SLOT 16

static int mmio_read(void *dev, u64 off, unsigned size, u64 *val)
{
	struct vlapic *l = dev;
	u64 reg = 0;

	*val = 0;
	if (vlapic_mode(l) != VLAPIC_XAPIC) {
		*val = size >= 8 ? ~0ULL : BIT(8 * size) - 1;
		return 0;
	}
	if (off >= PAGE_SIZE || (off % SLOT) + size > SLOT)
		return -EINVAL; /* spans two registers' slots */
	if (vlapic_reg_read(l, (u32)(off & ~(u64)(SLOT - 1)), &reg))
		reg = 0; /* reserved: reads 0 */
	reg &= 0xffffffffULL;
	/* Bytes [off % 16, + size) of the slot: the register, then zeros. */
	if (off % SLOT < 4)
		*val = reg >> (8 * (off % SLOT));
	if (size < 8)
		*val &= BIT(8 * size) - 1;
	return 0;
}

static int mmio_write(void *dev, u64 off, unsigned size, u64 val)
{
	struct vlapic *l = dev;

	if (vlapic_mode(l) != VLAPIC_XAPIC)
		return 0;
	if (off >= PAGE_SIZE)
		return -EINVAL;
	if (size != 4 || (off % SLOT))
		return 0; /* not a register store the SDM defines: dropped */
	(void)vlapic_reg_write(l, (u32)off, val); /* read-only: ignored */
	return 0;
}

const struct mmio_ops vlapic_mmio_ops = { mmio_read, mmio_write };
