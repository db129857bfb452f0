// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/asid.c - address space IDs for guests (APM vol 2 15.16): ASID 0
 * is the host's, each guest takes one of 1 .. min(64, CPUID
 * 0x8000000A:EBX - 1) for its life; the first VMRUN of a VMCB flushes the
 * ASID (vmcb_first_tlb_control()), so a reused one holds nothing stale. */
#include "arch/spinlock.h"
#include "hv/features.h"
#include "hv/vmcb/asid.h"

static u64 asid_used; /* bit n = ASID n + 1 */
static spinlock_t asid_lock;

u32 asid_alloc(void)
{
	u32 max = g_features.svm_nasid - 1, a = 0;

	spin_lock(&asid_lock);
	for (u32 i = 0; i < 64 && i < max; i++) {
		if (!(asid_used & BIT(i))) {
			asid_used |= BIT(i);
			a = i + 1;
			break;
		}
	}
	spin_unlock(&asid_lock);
	return a;
}

void asid_free(u32 a)
{
	spin_lock(&asid_lock);
	asid_used &= ~BIT(a - 1);
	spin_unlock(&asid_lock);
}
