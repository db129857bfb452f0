// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/asid.c - address space IDs for guests (APM vol 2 15.16): ASID 0
 * is the host's, each guest takes one of 64 above the SEV range (1 ..
 * CPUID 0x8000001F:ECX on an SEV-capable CPU, APM vol 2 15.34; KVM's
 * non-SEV ASIDs start at max_sev_asid + 1 the same way) and below CPUID
 * 0x8000000A:EBX, for its life; the first VMRUN of a VMCB flushes the
 * ASID (vmcb_first_tlb_control()), so a reused one holds nothing stale. */
#include "arch/spinlock.h"
#include "hv/features.h"
#include "hv/vmcb/asid.h"

static u64 asid_used; /* bit n = ASID asid_first() + n */
static spinlock_t asid_lock;

/* The lowest ASID an ordinary guest may have: past the SEV range, which
 * belongs to encrypted guests (an SNP guest of minhv's next to a plain
 * one must not share its ASID). */
static u32 asid_first(void)
{
	return g_features.sev_asids + 1;
}

u32 asid_alloc(void)
{
	u32 first = asid_first(), a = 0;

	spin_lock(&asid_lock);
	for (u32 i = 0; i < 64 && first + i < g_features.svm_nasid; i++) {
		if (!(asid_used & BIT(i))) {
			asid_used |= BIT(i);
			a = first + i;
			break;
		}
	}
	spin_unlock(&asid_lock);
	return a;
}

void asid_free(u32 a)
{
	u32 i = a - asid_first(); /* wraps for 0 and below: ignored */

	if (i >= 64)
		return;
	spin_lock(&asid_lock);
	asid_used &= ~BIT(i);
	spin_unlock(&asid_lock);
}
