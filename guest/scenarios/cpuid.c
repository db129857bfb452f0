// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/cpuid.c - minhv's CPUID leaves (signature, ABI version,
 * vCPU id), SVM hidden from the guest, basic leaves equal on every vCPU. */
#include "guest/atomic.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"

#define SVM_BIT (1u << 2) /* CPUID 0x80000001:ECX */

/* What each vCPU sees; the APIC id field (leaf 1 EBX[31:24]) is masked. */
struct view {
	struct cpuid_regs l0, l1, e0, e1, hv0, hv1;
	volatile bool filled;
};

static struct view views[GUEST_MAX_VCPUS];

static void collect(void *unused)
{
	struct view *v = &views[smp_id()];

	(void)unused;
	v->l0 = cpuid(0, 0);
	v->l1 = cpuid(1, 0);
	v->l1.ebx &= 0x00ffffff;
	v->e0 = cpuid(0x80000000, 0);
	v->e1 = cpuid(0x80000001, 0);
	v->hv0 = cpuid(HV_CPUID_BASE, 0);
	v->hv1 = cpuid(HV_CPUID_FEATURES, 0);
	v->filled = true;
}

static bool same(const struct cpuid_regs *a, const struct cpuid_regs *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

static void check_leaves(const struct view *v)
{
	char sig[13];

	memcpy(sig, &v->hv0.ebx, 4);
	memcpy(sig + 4, &v->hv0.ecx, 4);
	memcpy(sig + 8, &v->hv0.edx, 4);
	sig[12] = 0;
	report(memcmp(sig, "minhvminhv\0\0", 12) == 0,
	       "0x40000000 signature is \"%s\"", sig);
	report(v->hv0.eax >= HV_CPUID_FEATURES,
	       "0x40000000 max leaf %#x covers 0x40000001", v->hv0.eax);
	report(v->hv1.eax == HV_ABI_VERSION, "ABI version %u, want %u",
	       v->hv1.eax, HV_ABI_VERSION);
	report(v->e0.eax >= 0x80000001, "max extended leaf %#x", v->e0.eax);
	report(!(v->e1.ecx & SVM_BIT), "SVM hidden: 0x80000001 ECX %#x",
	       v->e1.ecx);
	/* 0x8000001F (SME/SEV) and up are hidden: Linux reads MSR_AMD64_SEV
	 * unchecked when that leaf reports SEV. */
	report(v->e0.eax < 0x8000001f, "max extended leaf %#x below 0x8000001F",
	       v->e0.eax);
}

static void cpuid_body(void)
{
	u32 nr = smp_nr(), ran, id, same_all = 0;
	bool ids_ok = true;

	memset(views, 0, sizeof(views));
	ran = on_all_vcpus(collect, NULL);
	report(ran == nr, "%u of %u vCPUs ran the probe", ran, nr);
	check_leaves(&views[0]);
	report(views[0].hv1.ebx == 0, "vCPU 0 reads id %u from 0x40000001",
	       views[0].hv1.ebx);
	if (nr < 2) {
		report_skip("one vCPU: nothing to compare across vCPUs");
		return;
	}
	for (id = 1; id < nr; id++) {
		const struct view *v = &views[id], *b = &views[0];

		if (!v->filled)
			continue;
		ids_ok &= v->hv1.ebx == id;
		same_all += same(&v->l0, &b->l0) && same(&v->l1, &b->l1) &&
			    same(&v->e0, &b->e0) && same(&v->e1, &b->e1) &&
			    same(&v->hv0, &b->hv0) && v->hv1.eax == b->hv1.eax;
		if (!same(&v->l1, &b->l1))
			report_info(
				"vCPU %u leaf 1: %08x %08x %08x %08x, vCPU 0: %08x %08x %08x %08x",
				id, v->l1.eax, v->l1.ebx, v->l1.ecx, v->l1.edx,
				b->l1.eax, b->l1.ebx, b->l1.ecx, b->l1.edx);
	}
	report(same_all == nr - 1,
	       "leaves 0, 1, 0x80000000/1, 0x40000000/1 equal on %u of %u other vCPUs",
	       same_all, nr - 1);
	report(ids_ok, "every vCPU reads its own id from 0x40000001 EBX");
}

const struct scenario scn_cpuid = { "cpuid", "basic", NULL, cpuid_body, 0 };
