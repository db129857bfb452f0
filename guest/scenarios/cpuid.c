// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/cpuid.c - minhv's CPUID leaves (signature, ABI version,
 * vCPU id), SVM hidden from the guest, basic leaves equal on every vCPU,
 * and a topology made of the vCPUs: each one's APIC ID in leaf 1, 0xB and
 * 0x8000001E is its vCPU index (the vLAPIC's and the guest MADT's ID),
 * whatever the physical CPU under it has; one package of N cores. */
#include "guest/atomic.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"

#define SVM_BIT (1u << 2) /* CPUID 0x80000001:ECX */
#define TOPOEXT_BIT (1u << 22) /* CPUID 0x80000001:ECX */
#define HTT_BIT (1u << 28) /* CPUID 1:EDX */

/* What each vCPU sees; the APIC id field (leaf 1 EBX[31:24]) is kept in
 * apic and masked in l1. The topology leaves: 0xB subleaves 0 and 1,
 * 0x80000008, 0x8000001E (zero where the guest's maxima end before). */
struct view {
	struct cpuid_regs l0, l1, e0, e1, hv0, hv1;
	struct cpuid_regs smt, core, e8, e1e;
	u32 apic;
	bool has_e1e; /* TopologyExtensions and the leaf in range */
	volatile bool filled;
};

static struct view views[GUEST_MAX_VCPUS];

static void collect(void *unused)
{
	struct view *v = &views[smp_id()];

	(void)unused;
	v->l0 = cpuid(0, 0);
	v->l1 = cpuid(1, 0);
	v->apic = v->l1.ebx >> 24;
	v->l1.ebx &= 0x00ffffff;
	v->e0 = cpuid(0x80000000, 0);
	v->e1 = cpuid(0x80000001, 0);
	v->hv0 = cpuid(HV_CPUID_BASE, 0);
	v->hv1 = cpuid(HV_CPUID_FEATURES, 0);
	if (v->l0.eax >= 0xb) {
		v->smt = cpuid(0xb, 0);
		v->core = cpuid(0xb, 1);
	}
	if (v->e0.eax >= 0x80000008)
		v->e8 = cpuid(0x80000008, 0);
	v->has_e1e = v->e0.eax >= 0x8000001e && (v->e1.ecx & TOPOEXT_BIT);
	if (v->has_e1e)
		v->e1e = cpuid(0x8000001e, 0);
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

/* Each vCPU's APIC IDs are its index, and the leaves describe one
 * package of nr single-thread cores: what the guest MADT and the vLAPICs
 * of a platform guest say (hv/platform/acpi_tables.c, hv/vlapic/vlapic.c). */
static void check_topology(u32 nr)
{
	u32 id, leaf1 = 0, ext = 0, e1e = 0, pkg = 0, seen = 0;
	const struct view *b = &views[0];
	u32 shift = b->core.eax & 0x1f;
	bool has_b = b->l0.eax >= 0xb;

	for (id = 0; id < nr; id++) {
		const struct view *v = &views[id];

		if (!v->filled)
			continue;
		seen++;
		leaf1 += v->apic == (id & 0xff);
		ext += v->smt.edx == id && v->core.edx == id;
		e1e += v->e1e.eax == id;
		pkg += (id >> shift) == 0;
		if (v->apic != (id & 0xff) || (has_b && v->core.edx != id))
			report_info(
				"vCPU %u: leaf 1 APIC ID %u, 0xB x2APIC ID %u, 0x8000001E %u",
				id, v->apic, v->core.edx, v->e1e.eax);
	}
	report(leaf1 == seen,
	       "leaf 1 initial APIC ID is the vCPU index on %u of %u vCPUs",
	       leaf1, seen);
	report(((b->l1.ebx >> 16) & 0xff) == (nr < 255 ? nr : 255) &&
		       !!(b->l1.edx & HTT_BIT) == (nr > 1),
	       "leaf 1: %u logical processors, HTT %u, for %u vCPUs",
	       (b->l1.ebx >> 16) & 0xff, !!(b->l1.edx & HTT_BIT), nr);
	if (has_b) {
		report(ext == seen,
		       "0xB x2APIC ID is the vCPU index on %u of %u vCPUs", ext,
		       seen);
		report((b->smt.ebx & 0xffff) == 1 && (b->smt.eax & 0x1f) == 0 &&
			       (b->core.ebx & 0xffff) == nr &&
			       (1ull << shift) >= nr && pkg == seen,
		       "0xB: 1 thread per core, %u cores (want %u), shift %u: one package",
		       b->core.ebx & 0xffff, nr, shift);
	}
	if (b->e0.eax >= 0x80000008)
		report((b->e8.ecx & 0xff) == (nr - 1 < 255 ? nr - 1 : 255) &&
			       (!has_b || ((b->e8.ecx >> 12) & 0xf) == shift),
		       "0x80000008 ECX %#x: %u threads, APIC ID size %u",
		       b->e8.ecx, (b->e8.ecx & 0xff) + 1,
		       (b->e8.ecx >> 12) & 0xf);
	if (b->has_e1e)
		report(e1e == seen,
		       "0x8000001E extended APIC ID is the vCPU index on %u of %u vCPUs",
		       e1e, seen);
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
	check_topology(nr);
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
