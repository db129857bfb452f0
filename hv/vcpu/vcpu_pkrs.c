// SPDX-License-Identifier: GPL-2.0-only
/* hv/vcpu/vcpu_pkrs.c - the guest's IA32_PKRS (0x6E1) per vCPU.
 *
 * PKRS holds an access-disable and a write-disable bit for each of the 16
 * supervisor protection keys; the CPU applies it to supervisor-mode
 * accesses when CR4.PKS (bit 24) is set (Intel SDM vol 3A 4.6.2, CR4 in
 * 2.5, the MSR in 2.8 / vol 4). Bits 63:32 are reserved: WRMSR with any of
 * them set is #GP. VMRUN/#VMEXIT switch neither the MSR nor anything that
 * stands for it (APM vol 2 15.5.1), so the hypervisor does.
 *
 * Design: the MSR stays intercepted (the MSRPM default, hv/vmcb/vmcb_pm.c)
 * and v->pkrs is the value the guest sees. A guest WRMSR is checked here
 * and goes to the hardware MSR at once (exits run on the vCPU's own CPU);
 * the loop puts the vCPU's value in when it starts and 0 back when it ends.
 * Guest CR4.PKS lives in the VMCB, so the value is in force exactly while
 * that guest runs; the host never sets CR4.PKS and is not affected by what
 * the MSR holds meanwhile. vcpu_reset() makes it 0 again (RESET/INIT). */
#include "arch/cpu.h"
#include "arch/msr.h"
#include "arch/errno.h"
#include "hv/features.h"
#include "hv/vcpu/vcpu.h"
#include "hv/vcpu/vcpu_pkrs.h"

#define PKRS_RESERVED 0xffffffff00000000ULL /* bits 63:32 */

void vcpu_pkrs_enter(struct vcpu *v)
{
	if (g_features.pks)
		wrmsr(MSR_PKRS, v->pkrs);
}

void vcpu_pkrs_exit(struct vcpu *v)
{
	(void)v; /* its value is v->pkrs already: every write went there */
	if (g_features.pks)
		wrmsr(MSR_PKRS, 0);
}

int vcpu_pkrs_read(struct vcpu *v, u64 *val)
{
	if (!g_features.pks)
		return -EINVAL; /* no such MSR: #GP as on a CPU without PKS */
	*val = v->pkrs;
	return 0;
}

int vcpu_pkrs_write(struct vcpu *v, u64 val)
{
	if (!g_features.pks || (val & PKRS_RESERVED))
		return -EINVAL;
	v->pkrs = val;
	wrmsr(MSR_PKRS, val);
	return 0;
}
