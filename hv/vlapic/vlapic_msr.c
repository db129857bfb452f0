// SPDX-License-Identifier: GPL-2.0-only
/* hv/vlapic/vlapic_msr.c - x2APIC MSR front end: MSR 0x800 + (offset >> 4)
 * (SDM 11.12.1.2, table 11-6), #GP (-EINVAL) outside x2APIC mode. */
#include "arch/errno.h"
#include "hv/vlapic/vlapic.h"

int vlapic_msr_read(struct vlapic *l, u32 msr, u64 *val)
{
	*val = 0;
	if (msr < MSR_X2APIC_BASE || msr > MSR_X2APIC_END ||
	    vlapic_mode(l) != VLAPIC_X2APIC)
		return -EINVAL;
	return vlapic_reg_read(l, (msr - MSR_X2APIC_BASE) << 4, val);
}

int vlapic_x2apic_eoi(struct vlapic *l, u64 val)
{
	if (val || vlapic_mode(l) != VLAPIC_X2APIC)
		return -EINVAL;
	vlapic_eoi(l);
	return 0;
}

int vlapic_msr_write(struct vlapic *l, u32 msr, u64 val)
{
	if (msr < MSR_X2APIC_BASE || msr > MSR_X2APIC_END ||
	    vlapic_mode(l) != VLAPIC_X2APIC)
		return -EINVAL;
	return vlapic_reg_write(l, (msr - MSR_X2APIC_BASE) << 4, val);
}
