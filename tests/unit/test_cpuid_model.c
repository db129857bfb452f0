// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_cpuid_model.c - the guest CPUID model (hv/cpuid/) on
 * real CPUID dumps of EPYC Rome, Milan, Genoa and Turin (tests/data/cpuid/,
 * README there), loaded through the CPU double's CPUID table and captured
 * as svm_init() does at boot. For every generation and every guest kind:
 * each feature whose MSRs or instructions minhv does not handle is hidden
 * (an explicit list), leaf 0xD lists exactly the XCR0 bits minhv lets a
 * guest enable, the leaves minhv virtualises stay visible, and the
 * topology leaves describe one package of N single-thread cores whose APIC
 * IDs are the vCPU indices of the guest MADT, for several N and vCPUs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cpuid.h"
#include "arch/cr.h"
#include "arch/xcr0.h"
#include "hv/cpuid/cpuid.h"
#include "hv/features.h"
#include "hv/vcpu/vcpu_fpu.h"
#include "tests/doubles/fake_cpu.h"

#define DUMPS "tests/data/cpuid/"

/* What each dump is known to show on the host, so that every hidden bit
 * below is really there to hide in at least one generation. */
struct dump {
	const char *file, *name;
	bool invlpgb, bus_lock, la57, avx512, pku;
};

static const struct dump dumps[] = {
	{ DUMPS "epyc-rome.txt", "Rome", false, false, false, false, false },
	{ DUMPS "epyc-milan.txt", "Milan", true, false, false, false, true },
	{ DUMPS "epyc-genoa.txt", "Genoa", true, false, true, true, true },
	{ DUMPS "epyc-turin.txt", "Turin", true, true, true, true, true },
};

static const enum cpuid_guest_kind kinds[] = {
	CPUID_GUEST_BUILTIN,
	CPUID_GUEST_MULTIBOOT,
	CPUID_GUEST_LINUX,
};

static struct cpuid_host host;
static struct features feat;

/* "CPUID 0000000D: 00000207-00000340-00000380-00000000 [SL 01] ..."; a
 * line without [SL n] is subleaf 0. Returns the number of leaves. */
static unsigned load_dump(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned n = 0;

	if (!f)
		fail_msg("cannot open %s (run from the repository root)", path);
	fake_cpu_reset();
	while (fgets(line, sizeof(line), f)) {
		unsigned leaf, a, b, c, d, sub = 0;
		const char *sl;

		if (sscanf(line, "CPUID %x: %x-%x-%x-%x", &leaf, &a, &b, &c,
			   &d) != 5)
			continue;
		sl = strstr(line, "[SL ");
		if (sl && sscanf(sl, "[SL %x]", &sub) != 1)
			fail_msg("bad subleaf in %s: %s", path, line);
		fake_cpuid_set(leaf, sub, a, b, c, d);
		n++;
	}
	fclose(f);
	/* As at boot: features, the FPU policy (g_fpu.xcr0), the capture. */
	features_detect(&feat);
	fpu_boot(&feat);
	cpuid_host_capture(&host);
	return n;
}

static struct cpuid_vcpu vcpu_of(enum cpuid_guest_kind k, u32 id, u32 n)
{
	return (struct cpuid_vcpu){
		.kind = k,
		.id = id,
		.nr_vcpus = n,
		.xcr0_allowed = g_fpu.mode == FPU_XSAVE ? g_fpu.xcr0 : 0,
		.xcr0 = XCR0_X87,
		.apic_enabled = true,
		.pks = feat.pks,
		.tsc_adjust = feat.tsc_adjust,
		.tsc_khz = 2400000,
		.apic_bus_khz = 1000000,
	};
}

static struct cpuid_regs leaf(const struct cpuid_vcpu *v, u32 l, u32 sub)
{
	struct cpuid_regs r;

	cpuid_guest_leaf(&host, v, l, sub, &r);
	return r;
}

static struct cpuid_regs raw(u32 l, u32 sub)
{
	struct cpuid_regs r;

	cpuid(l, sub, &r);
	return r;
}

enum { EAX, EBX, ECX, EDX };

static u32 reg(struct cpuid_regs r, int i)
{
	return i == EAX ? r.eax : i == EBX ? r.ebx : i == ECX ? r.ecx : r.edx;
}

/* Features whose MSRs or instructions minhv does not handle. */
struct hidden {
	u32 leaf, sub;
	int reg;
	u32 bits;
	const char *why;
};

/* clang-format off */
static const struct hidden hidden[] = {
	{ 1, 0, ECX, CPUID_1_ECX_MONITOR, "MONITOR/MWAIT" },
	{ 1, 0, ECX, CPUID_1_ECX_VMX | CPUID_1_ECX_SMX, "VMX/SMX" },
	{ 1, 0, ECX, CPUID_1_ECX_PDCM, "PERF_CAPABILITIES" },
	{ 1, 0, ECX, CPUID_1_ECX_SDBG | CPUID_1_ECX_DTES64 |
		     CPUID_1_ECX_DS_CPL, "debug store/interface" },
	{ 1, 0, ECX, CPUID_1_ECX_EST | CPUID_1_ECX_TM2 | CPUID_1_ECX_XTPR |
		     CPUID_1_ECX_DCA, "thermal/frequency/xTPR/DCA" },
	{ 1, 0, EDX, CPUID_1_EDX_MCE | CPUID_1_EDX_MCA, "MCE/MCA" },
	{ 1, 0, EDX, CPUID_1_EDX_DS | CPUID_1_EDX_ACPI | CPUID_1_EDX_TM |
		     CPUID_1_EDX_PBE | CPUID_1_EDX_PSN, "DS/ACPI/TM/PBE/PSN" },
	{ 6, 0, ECX, CPUID_6_ECX_APERFMPERF, "APERF/MPERF" },
	{ 7, 0, EBX, CPUID_7_0_EBX_PQM | CPUID_7_0_EBX_PQE, "RDT PQM/PQE" },
	{ 7, 0, EBX, CPUID_7_0_EBX_SGX | CPUID_7_0_EBX_MPX |
		     CPUID_7_0_EBX_INTEL_PT, "SGX/MPX/PT" },
	{ 7, 0, ECX, CPUID_7_0_ECX_BUS_LOCK_DETECT, "bus-lock detect" },
	{ 7, 0, ECX, CPUID_7_0_ECX_WAITPKG | CPUID_7_0_ECX_CET_SS |
		     CPUID_7_0_ECX_TME | CPUID_7_0_ECX_KL |
		     CPUID_7_0_ECX_ENQCMD | CPUID_7_0_ECX_SGX_LC,
	  "WAITPKG/CET/TME/KL/ENQCMD/SGX_LC" },
	{ 7, 0, EDX, CPUID_7_0_EDX_ARCH_CAPABILITIES |
		     CPUID_7_0_EDX_CORE_CAPABILITIES |
		     CPUID_7_0_EDX_FLUSH_L1D | CPUID_7_0_EDX_SRBDS_CTRL,
	  "ARCH/CORE_CAPABILITIES, FLUSH_CMD, SRBDS" },
	{ 7, 0, EDX, CPUID_7_0_EDX_UINTR | CPUID_7_0_EDX_HYBRID |
		     CPUID_7_0_EDX_PCONFIG | CPUID_7_0_EDX_ARCH_LBR |
		     CPUID_7_0_EDX_CET_IBT | CPUID_7_0_EDX_AMX_BF16 |
		     CPUID_7_0_EDX_AMX_TILE | CPUID_7_0_EDX_AMX_INT8,
	  "UINTR/hybrid/PCONFIG/arch LBR/IBT/AMX" },
	{ 7, 1, EAX, CPUID_7_1_EAX_LAM | CPUID_7_1_EAX_FRED |
		     CPUID_7_1_EAX_LKGS | CPUID_7_1_EAX_WRMSRNS |
		     CPUID_7_1_EAX_HRESET | CPUID_7_1_EAX_AMX_FP16,
	  "LAM/FRED/LKGS/WRMSRNS/HRESET/AMX" },
	{ 0xd, 1, EAX, CPUID_D_1_EAX_XSAVES | CPUID_D_1_EAX_XFD,
	  "XSAVES (IA32_XSS), XFD" },
	{ 0x80000001, 0, ECX, CPUID_81_ECX_SVM | CPUID_81_ECX_SKINIT,
	  "nested SVM, SKINIT" },
	{ 0x80000001, 0, ECX, CPUID_81_ECX_EXT_APIC_SPACE, "extended APIC" },
	{ 0x80000001, 0, ECX, CPUID_81_ECX_OSVW | CPUID_81_ECX_IBS |
		     CPUID_81_ECX_WDT | CPUID_81_ECX_LWP | CPUID_81_ECX_TCE |
		     CPUID_81_ECX_NODE_ID_MSR, "OSVW/IBS/WDT/LWP/TCE/NodeId" },
	{ 0x80000001, 0, ECX, CPUID_81_ECX_PERFCTR_NB |
		     CPUID_81_ECX_PERFCTR_LLC | CPUID_81_ECX_DATA_BP_EXT |
		     CPUID_81_ECX_PERF_TSC | CPUID_81_ECX_MWAITX |
		     CPUID_81_ECX_ADDR_MASK_EXT,
	  "NB/LLC counters, DR masks, PTSC, MONITORX" },
	{ 0x80000001, 0, EDX, CPUID_1_EDX_MCE | CPUID_1_EDX_MCA |
		     CPUID_81_EDX_FFXSR, "MCE/MCA, EFER.FFXSR" },
	{ 0x80000007, 0, EDX, CPUID_87_EDX_HW_PSTATE | CPUID_87_EDX_CPB,
	  "P-state MSRs" },
	{ 0x80000008, 0, EBX, CPUID_88_EBX_INVLPGB |
		     CPUID_88_EBX_TLB_FLUSH_NESTED, "INVLPGB/TLBSYNC" },
	{ 0x80000008, 0, EBX, CPUID_88_EBX_IRPERF | CPUID_88_EBX_RDPRU |
		     CPUID_88_EBX_MBE | CPUID_88_EBX_MCOMMIT |
		     CPUID_88_EBX_INT_WBINVD | CPUID_88_EBX_PPIN |
		     CPUID_88_EBX_VIRT_SSBD | CPUID_88_EBX_CPPC |
		     CPUID_88_EBX_PSFD,
	  "IRPERF/RDPRU/MBE/MCOMMIT/PPIN/VIRT_SSBD/CPPC/PSFD" },
};
/* clang-format on */

/* Whole leaves that read zero: RDT (0xF, 0x10), MONITOR (5), PMU (0xA),
 * SGX/PT (0x12, 0x14), SVM (0x8000000A), IBS/LWP, and from 0x8000001F
 * (SEV, AutoIBRS, PerfMonV2, extended topology 0x80000026) up; also
 * leaves past the guest's maxima and unknown hypervisor leaves. */
static const u32 zero_leaves[] = {
	5,	    0xa,	0xf,	    0x10,	0x12,	    0x14,
	0x20,	    0x80000009, 0x8000000a, 0x8000001b, 0x8000001c, 0x8000001f,
	0x80000020, 0x80000021, 0x80000022, 0x80000026, 0x40000002, 0x40000101,
	0x40000200, 0xc0000000, 0x8fffffff,
};

static void check_hidden(const struct cpuid_vcpu *v, const char *what)
{
	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++) {
		const struct hidden *h = &hidden[i];
		u32 got = reg(leaf(v, h->leaf, h->sub), h->reg);

		if (got & h->bits)
			fail_msg("%s: %s shown (leaf %#x.%u reg %d: %#x)", what,
				 h->why, h->leaf, h->sub, h->reg,
				 got & h->bits);
	}
	for (size_t i = 0; i < sizeof(zero_leaves) / sizeof(zero_leaves[0]);
	     i++) {
		for (u32 sub = 0; sub < 4; sub++) {
			struct cpuid_regs r = leaf(v, zero_leaves[i], sub);

			if (r.eax | r.ebx | r.ecx | r.edx)
				fail_msg(
					"%s: leaf %#x.%u not zero: %08x %08x %08x %08x",
					what, zero_leaves[i], sub, r.eax, r.ebx,
					r.ecx, r.edx);
		}
	}
	/* The PMU counter extension: only where hv/view/pmu.c has them. */
	if (v->kind != CPUID_GUEST_MULTIBOOT)
		assert_false(leaf(v, 0x80000001, 0).ecx &
			     CPUID_81_ECX_PERFCTR_CORE);
	/* TSC_ADJUST, TSC deadline: only with the platform's vLAPIC/MSR. */
	if (v->kind == CPUID_GUEST_BUILTIN) {
		assert_false(leaf(v, 7, 0).ebx & CPUID_7_0_EBX_TSC_ADJUST);
		assert_false(leaf(v, 1, 0).ecx & CPUID_1_ECX_TSC_DEADLINE);
	}
	assert_true(leaf(v, 0, 0).eax <= CPUID_GUEST_MAX_BASIC);
	assert_true(leaf(v, 0x80000000, 0).eax <= CPUID_GUEST_MAX_EXT);
}

/* What minhv virtualises stays visible, as before the allow-list. */
static void check_shown(const struct dump *d, const struct cpuid_vcpu *v)
{
	struct cpuid_regs l1 = leaf(v, 1, 0), l7 = leaf(v, 7, 0);
	struct cpuid_regs e1 = leaf(v, 0x80000001, 0), r;
	bool platform = v->kind != CPUID_GUEST_BUILTIN;

	assert_true(l1.ecx & CPUID_1_ECX_HYPERVISOR);
	assert_int_equal(l1.eax, raw(1, 0).eax);
	assert_int_equal(l1.ecx & CPUID_1_ECX_X2APIC,
			 raw(1, 0).ecx & CPUID_1_ECX_X2APIC);
	assert_int_equal(!!(l1.ecx & CPUID_1_ECX_TSC_DEADLINE), platform);
	assert_true(l1.ecx & CPUID_1_ECX_XSAVE);
	assert_true(l1.ecx & CPUID_1_ECX_AVX);
	assert_true(l1.edx & (CPUID_1_EDX_APIC | CPUID_1_EDX_FPU |
			      CPUID_1_EDX_TSC | CPUID_1_EDX_MSR));
	assert_int_equal(!!(l7.ecx & CPUID_7_0_ECX_LA57), d->la57);
	assert_int_equal(!!(l7.ebx & CPUID_7_0_EBX_AVX512F), d->avx512);
	assert_true(l7.ebx & CPUID_7_0_EBX_AVX2);
	assert_int_equal(!!(l7.ecx & CPUID_7_0_ECX_PKU), d->pku);
	assert_int_equal(!!(l7.ebx & CPUID_7_0_EBX_TSC_ADJUST),
			 platform && feat.tsc_adjust);
	assert_true(e1.edx & CPUID_81_EDX_LM);
	assert_true(e1.edx & CPUID_81_EDX_NX);
	assert_true(e1.edx & CPUID_81_EDX_RDTSCP);
	assert_true(e1.ecx & CPUID_81_ECX_TOPOEXT);
	assert_int_equal(!!(e1.ecx & CPUID_81_ECX_PERFCTR_CORE),
			 v->kind == CPUID_GUEST_MULTIBOOT);
	assert_true(leaf(v, 0x80000008, 0).ebx &
		    (CPUID_88_EBX_IBPB | CPUID_88_EBX_WBNOINVD));
	assert_true(leaf(v, 0x80000007, 0).edx & CPUID_87_EDX_INVARIANT_TSC);
	assert_true(leaf(v, 6, 0).eax & CPUID_6_EAX_ARAT);
	/* Vendor, brand string, cache descriptions: the host's. */
	r = leaf(v, 0, 0);
	assert_int_equal(r.ebx, 0x68747541); /* "Auth" */
	assert_int_equal(leaf(v, 0x80000002, 0).eax, raw(0x80000002, 0).eax);
	assert_int_equal(leaf(v, 0x80000006, 0).ecx, raw(0x80000006, 0).ecx);
	/* minhv's leaves. */
	r = leaf(v, 0x40000000, 0);
	assert_int_equal(r.eax, platform ? 0x40000010 : 0x40000001);
	assert_memory_equal(&r.ebx, "minh", 4);
	r = leaf(v, 0x40000001, 0);
	assert_int_equal(r.ebx, v->id);
	assert_int_equal(r.ecx, v->nr_vcpus);
	assert_int_equal(leaf(v, 0x40000010, 0).eax, platform ? 2400000 : 0);
	/* KVM's signature at 0x40000100, no features: Linux only. */
	r = leaf(v, 0x40000100, 0);
	if (v->kind == CPUID_GUEST_LINUX) {
		assert_int_equal(r.eax, 0x40000101);
		assert_memory_equal(&r.ebx, "KVMKVMKVM\0\0\0", 12);
	} else {
		assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
	}
}

/* 0xD: exactly the XCR0 bits minhv allows (g_fpu.xcr0) that the host
 * has, sizes that match them, nothing supervisor, and narrower when
 * minhv allows less. */
static void check_xsave(const struct cpuid_vcpu *v0)
{
	struct cpuid_vcpu v = *v0;
	struct cpuid_regs d0 = leaf(&v, 0xd, 0), h0 = raw(0xd, 0);
	u64 shown = ((u64)d0.edx << 32) | d0.eax;
	u64 host_xcr0 = ((u64)h0.edx << 32) | h0.eax;
	u32 end = XSAVE_LEGACY_HDR_SIZE;

	assert_true(shown & (XCR0_X87 | XCR0_SSE | XCR0_AVX));
	assert_int_equal(shown & ~g_fpu.xcr0, 0);
	assert_int_equal(shown, g_fpu.xcr0 & host_xcr0);
	for (u32 i = 2; i < 64; i++) {
		struct cpuid_regs s = leaf(&v, 0xd, i);

		if (!(shown & BIT(i))) {
			/* e.g. CET_U/CET_S (11, 12) on Milan and later */
			assert_int_equal(s.eax | s.ebx | s.ecx | s.edx, 0);
			continue;
		}
		assert_int_equal(s.eax, raw(0xd, i).eax);
		assert_int_equal(s.ebx, raw(0xd, i).ebx);
		assert_false(s.ecx & CPUID_D_N_ECX_SUPERVISOR);
		if (s.ebx + s.eax > end)
			end = s.ebx + s.eax;
	}
	assert_int_equal(d0.ecx, end); /* every allowed component */
	assert_int_equal(d0.ebx, XSAVE_LEGACY_HDR_SIZE); /* XCR0 = x87 */
	v.xcr0 = shown;
	assert_int_equal(leaf(&v, 0xd, 0).ebx, end);
	assert_int_equal(leaf(&v, 0xd, 1).ecx | leaf(&v, 0xd, 1).edx, 0);
	/* minhv allows only x87 and SSE: AVX and what needs it goes. */
	v.xcr0_allowed = XCR0_X87 | XCR0_SSE;
	v.xcr0 = XCR0_X87;
	d0 = leaf(&v, 0xd, 0);
	assert_int_equal(d0.eax, XCR0_X87 | XCR0_SSE);
	assert_int_equal(d0.ecx, XSAVE_LEGACY_HDR_SIZE);
	assert_int_equal(leaf(&v, 0xd, 2).eax, 0);
	assert_false(leaf(&v, 1, 0).ecx & (CPUID_1_ECX_AVX | CPUID_1_ECX_FMA));
	assert_false(leaf(&v, 7, 0).ebx &
		     (CPUID_7_0_EBX_AVX2 | CPUID_7_0_EBX_AVX512F));
	assert_false(leaf(&v, 0x80000001, 0).ecx &
		     (CPUID_81_ECX_XOP | CPUID_81_ECX_FMA4));
	/* No XSAVE at all: the leaf and the bit are gone. */
	v.xcr0_allowed = 0;
	d0 = leaf(&v, 0xd, 0);
	assert_int_equal(d0.eax | d0.ebx | d0.ecx | d0.edx, 0);
	assert_false(leaf(&v, 1, 0).ecx & CPUID_1_ECX_XSAVE);
}

static u32 order(u32 n)
{
	u32 b = 0;

	while ((1u << b) < n)
		b++;
	return b;
}

/* vCPU id of n: what Linux derives from each topology leaf. */
static void check_topology_one(enum cpuid_guest_kind k, u32 id, u32 n)
{
	struct cpuid_vcpu v = vcpu_of(k, id, n);
	struct cpuid_regs l1 = leaf(&v, 1, 0), smt = leaf(&v, 0xb, 0);
	struct cpuid_regs core = leaf(&v, 0xb, 1), end = leaf(&v, 0xb, 2);
	struct cpuid_regs e8 = leaf(&v, 0x80000008, 0);
	struct cpuid_regs e1e = leaf(&v, 0x8000001e, 0);
	u32 shift = core.eax & CPUID_TOPO_EAX_SHIFT;
	u32 apic_size = (e8.ecx >> CPUID_88_ECX_APIC_ID_SIZE_SHIFT) & 0xf;

	/* The APIC ID is the vCPU's MADT/vLAPIC ID in every leaf. */
	assert_int_equal(l1.ebx >> 24, id & 0xff);
	assert_int_equal((l1.ebx >> 16) & 0xff, n < 255 ? n : 255);
	assert_int_equal(!!(l1.edx & CPUID_1_EDX_HTT), n > 1);
	assert_int_equal(smt.edx, id);
	assert_int_equal(core.edx, id);
	assert_int_equal(end.edx, id);
	assert_int_equal(e1e.eax, id);
	/* 0xB: SMT level of one thread, core level of n, then the end. */
	assert_int_equal((smt.ecx >> 8) & 0xff, CPUID_TOPO_TYPE_SMT);
	assert_int_equal(smt.ebx & 0xffff, 1);
	assert_int_equal(smt.eax & CPUID_TOPO_EAX_SHIFT, 0);
	assert_int_equal((core.ecx >> 8) & 0xff, CPUID_TOPO_TYPE_CORE);
	assert_int_equal(core.ecx & 0xff, 1);
	assert_int_equal(core.ebx & 0xffff, n);
	assert_int_equal(shift, order(n));
	assert_int_equal((end.ecx >> 8) & 0xff, 0);
	assert_int_equal(end.ebx & 0xffff, 0);
	/* One package: the package ID (APIC ID >> core shift) is 0. */
	assert_int_equal(id >> shift, 0);
	/* 0x80000008: n threads, the same APIC ID bits (Linux 6.1's
	 * x86_coreid_bits and topology_amd.c's core domain). */
	assert_int_equal(e8.ecx & 0xff, n - 1 < 0xff ? n - 1 : 0xff);
	assert_int_equal(apic_size, shift);
	assert_int_equal(e8.eax & 0xffff, raw(0x80000008, 0).eax & 0xffff);
	/* 0x8000001E: core id, one thread per core, one node. */
	assert_int_equal(e1e.ebx & 0xff, id & 0xff);
	assert_int_equal((e1e.ebx >> 8) & 0xff, 0);
	assert_int_equal(e1e.ecx & 0x7ff, 0);
	/* 0x8000001D: L1/L2 per core, L3 for all n: LLC ID 0 everywhere. */
	for (u32 sub = 0; sub < 8; sub++) {
		struct cpuid_regs c = leaf(&v, 0x8000001d, sub);
		struct cpuid_regs h = raw(0x8000001d, sub);
		u32 sharing = ((c.eax >> 14) & 0xfff) + 1;
		u32 level = (c.eax >> 5) & 7;

		if (!(h.eax & 0x1f)) {
			assert_int_equal(c.eax, 0);
			break;
		}
		assert_int_equal(c.eax & 0x3fff, h.eax & 0x3fff);
		assert_int_equal(c.ebx, h.ebx);
		assert_int_equal(c.ecx, h.ecx);
		if (level < 3)
			assert_int_equal(sharing, 1);
		else
			assert_int_equal(id >> order(sharing), 0);
	}
}

static void check_topology(enum cpuid_guest_kind k)
{
	static const u32 counts[] = { 1, 2, 3, 4, 6, 8, 16, 64, 255, 300 };

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		u32 n = counts[i];

		/* Every vCPU of the small guests, some of the large ones. */
		if (n <= 16) {
			for (u32 id = 0; id < n; id++)
				check_topology_one(k, id, n);
		} else {
			check_topology_one(k, 0, n);
			check_topology_one(k, 1, n);
			check_topology_one(k, n / 2, n);
			check_topology_one(k, n - 1, n);
		}
	}
}

/* The dump really has what the model must hide: PQM/PQE and leaves
 * 0xF/0x10 everywhere (Zen 2+), INVLPGB from Zen 3, bus-lock detect on
 * Zen 5, MCA, SVM, IBS. Without it the hiding checks prove nothing. */
static void check_host_has(const struct dump *d)
{
	struct cpuid_regs l7 = raw(7, 0);

	assert_true(l7.ebx & CPUID_7_0_EBX_PQM);
	assert_true(l7.ebx & CPUID_7_0_EBX_PQE);
	assert_true(raw(0xf, 0).edx && raw(0x10, 0).ebx);
	assert_int_equal(!!(l7.ecx & CPUID_7_0_ECX_BUS_LOCK_DETECT),
			 d->bus_lock);
	assert_int_equal(!!(raw(0x80000008, 0).ebx & CPUID_88_EBX_INVLPGB),
			 d->invlpgb);
	assert_true(raw(1, 0).edx & CPUID_1_EDX_MCA);
	assert_true(raw(0x80000001, 0).ecx &
		    (CPUID_81_ECX_SVM | CPUID_81_ECX_IBS));
	assert_true(raw(0x8000001f, 0).eax); /* SEV */
	/* Its physical topology differs from any guest's: CPU #0 of a
	 * multi-thread package. */
	assert_true(raw(1, 0).ebx >> 16 & 0xff);
}

static void test_dump(const struct dump *d)
{
	assert_true(load_dump(d->file) > 50);
	assert_string_equal(feat.vendor_str, "AuthenticAMD");
	check_host_has(d);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct cpuid_vcpu v = vcpu_of(kinds[k], 1, 4);
		char what[64];

		snprintf(what, sizeof(what), "%s, kind %d", d->name,
			 (int)kinds[k]);
		check_hidden(&v, what);
		check_shown(d, &v);
		check_xsave(&v);
		check_topology(kinds[k]);
	}
}

static void test_rome(void **s)
{
	(void)s;
	test_dump(&dumps[0]);
}

static void test_milan(void **s)
{
	(void)s;
	test_dump(&dumps[1]);
}

static void test_genoa(void **s)
{
	(void)s;
	test_dump(&dumps[2]);
}

static void test_turin(void **s)
{
	(void)s;
	test_dump(&dumps[3]);
}

/* The bits that follow the vCPU's state: OSXSAVE and OSPKE mirror the
 * guest's CR4, EDX.APIC follows IA32_APIC_BASE.EN on a platform guest, and
 * 0xD.0 EBX the guest's XCR0. */
static void test_dynamic_bits(void **s)
{
	struct cpuid_vcpu v;

	(void)s;
	load_dump(dumps[2].file);
	v = vcpu_of(CPUID_GUEST_MULTIBOOT, 0, 2);
	assert_false(leaf(&v, 1, 0).ecx & CPUID_1_ECX_OSXSAVE);
	assert_false(leaf(&v, 7, 0).ecx & CPUID_7_0_ECX_OSPKE);
	v.cr4 = CR4_OSXSAVE | CR4_PKE;
	assert_true(leaf(&v, 1, 0).ecx & CPUID_1_ECX_OSXSAVE);
	assert_true(leaf(&v, 7, 0).ecx & CPUID_7_0_ECX_OSPKE);
	assert_true(leaf(&v, 1, 0).edx & CPUID_1_EDX_APIC);
	v.apic_enabled = false;
	assert_false(leaf(&v, 1, 0).edx & CPUID_1_EDX_APIC);
	v.kind = CPUID_GUEST_BUILTIN; /* no vLAPIC to disable */
	assert_true(leaf(&v, 1, 0).edx & CPUID_1_EDX_APIC);
	/* PKS only where minhv switches IA32_PKRS. */
	v.pks = true;
	fake_cpuid_or(7, 0, 2, CPUID_7_0_ECX_PKS);
	cpuid_host_capture(&host);
	assert_true(leaf(&v, 7, 0).ecx & CPUID_7_0_ECX_PKS);
	v.pks = false;
	assert_false(leaf(&v, 7, 0).ecx & CPUID_7_0_ECX_PKS);
}

/* The capture keeps nothing above the host's maxima, and the guest's
 * maxima are clamped to what the model knows. */
static void test_maxima(void **s)
{
	struct cpuid_vcpu v;

	(void)s;
	load_dump(dumps[3].file); /* Turin: extended leaves to 0x80000028 */
	v = vcpu_of(CPUID_GUEST_LINUX, 0, 1);
	assert_int_equal(host.max_ext, 0x80000028);
	assert_int_equal(leaf(&v, 0x80000000, 0).eax, 0x8000001e);
	assert_int_equal(leaf(&v, 0, 0).eax, 0x10); /* the host's, < 0x1F */
	fake_cpu_reset();
	fake_cpuid_set(0, 0, 1, 0, 0, 0);
	fake_cpuid_set(7, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff);
	cpuid_host_capture(&host);
	assert_int_equal(host.leaf7[0].ebx, 0); /* above the host's max */
	assert_int_equal(leaf(&v, 7, 0).ebx, 0);
	assert_int_equal(leaf(&v, 0x80000000, 0).eax, 0);
	assert_int_equal(leaf(&v, 0x80000001, 0).edx, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rome),
		cmocka_unit_test(test_milan),
		cmocka_unit_test(test_genoa),
		cmocka_unit_test(test_turin),
		cmocka_unit_test(test_dynamic_bits),
		cmocka_unit_test(test_maxima),
	};
	return cmocka_run_group_tests_name("cpuid_model", tests, NULL, NULL);
}
