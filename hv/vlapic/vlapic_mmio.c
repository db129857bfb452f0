// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic_mmio.c - xAPIC MMIO front end: aligned 32-bit accesses
 * to 16-byte-aligned registers of the 4 KiB page (SDM 11.4.1); outside
 * xAPIC mode the page is not decoded (reads all ones, writes dropped). */
#include "arch/errno.h"
#include "hv/vlapic/vlapic.h"

static int mmio_read(void *dev, u64 off, unsigned size, u64 *val)
{
	struct vlapic *l = dev;

	*val = 0;
	if (vlapic_mode(l) != VLAPIC_XAPIC) {
		*val = size >= 8 ? ~0ULL : BIT(8 * size) - 1;
		return 0;
	}
	if (size != 4 || (off & 15) || off >= PAGE_SIZE)
		return -EINVAL;
	if (vlapic_reg_read(l, (u32)off, val))
		*val = 0; /* reserved: reads 0 */
	return 0;
}

static int mmio_write(void *dev, u64 off, unsigned size, u64 val)
{
	struct vlapic *l = dev;

	if (vlapic_mode(l) != VLAPIC_XAPIC)
		return 0;
	if (size != 4 || (off & 15) || off >= PAGE_SIZE)
		return -EINVAL;
	(void)vlapic_reg_write(l, (u32)off, val); /* read-only: ignored */
	return 0;
}

const struct mmio_ops vlapic_mmio_ops = { mmio_read, mmio_write };
