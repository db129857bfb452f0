// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/vmcb_pm.c - the I/O and MSR permission maps (APM vol 2, 15.10.1
 * and 15.11): all ports intercepted; MSRs intercepted but an allow-list
 * whose state VMRUN/VMLOAD/VMSAVE switch anyway. */
#include "arch/msr.h"
#include "arch/errno.h"
#include "lib/string.h"
#include "hv/vmcb/vmcb.h"

/* Reads pass through: their guest values live in the VMCB save area.
 * Writes exit so hv/svm/exit_msr.c can enforce canonical addresses. */
static const u32 passthrough[] = {
	MSR_FS_BASE,	  MSR_GS_BASE,	    MSR_KERNEL_GS_BASE, MSR_STAR,
	MSR_LSTAR,	  MSR_CSTAR,	    MSR_SFMASK,		MSR_SYSENTER_CS,
	MSR_SYSENTER_ESP, MSR_SYSENTER_EIP,
};

void vmcb_iopm_build(void *iopm)
{
	memset(iopm, 0xff, IOPM_PAGES * PAGE_SIZE);
}

long vmcb_msrpm_bit(u32 msr)
{
	/* Three 2 KiB ranges, two bits (read, write) per MSR. */
	if (msr <= 0x1fff)
		return (long)msr * 2;
	if (msr >= 0xc0000000 && msr <= 0xc0001fff)
		return 0x800 * 8 + (long)(msr - 0xc0000000) * 2;
	if (msr >= 0xc0010000 && msr <= 0xc0011fff)
		return 0x1000 * 8 + (long)(msr - 0xc0010000) * 2;
	return -ERANGE;
}

bool vmcb_msrpm_intercepts(const void *msrpm, u32 msr, bool write)
{
	const u8 *pm = msrpm;
	long b = vmcb_msrpm_bit(msr);

	if (b < 0)
		return true;
	b += write;
	return (pm[b / 8] >> (b % 8)) & 1;
}

void vmcb_msrpm_build(void *msrpm)
{
	u8 *pm = msrpm;

	memset(pm, 0xff, MSRPM_PAGES * PAGE_SIZE);
	for (unsigned i = 0; i < ARRAY_SIZE(passthrough); i++) {
		long b = vmcb_msrpm_bit(passthrough[i]);

		pm[b / 8] &= (u8) ~(1u << (b % 8)); /* read bit */
	}
}
