// SPDX-License-Identifier: GPL-2.0-only
/* hv/cpuid/allow.c - the allow-list: per leaf, subleaf and register, the
 * host bits a guest sees as the host has them. A bit is here only when
 * minhv virtualises what it enables (the MSR is emulated or switched, the
 * state is in the XSAVE image it switches, the instruction is intercepted
 * and handled) or when the CPU carries it out inside the guest with no
 * host state at stake (plain instructions, paging features under NPT).
 * Everything else reads 0: a new CPU's new bit stays hidden until someone
 * adds it here. Template: KVM's kvm_set_cpu_caps() (arch/x86/kvm/cpuid.c);
 * bit numbers: AMD APM vol 3 appendix E, Intel SDM vol 2A CPUID.
 *
 * Left out on purpose, with what would break (the MSR #GPs in minhv):
 *   MONITOR/MWAIT, MONITORX: not intercepted for emulation (docs/SVM.md)
 *   MCE/MCA: no MCG_CAP/MCi_* MSRs (Linux reads them unchecked)
 *   PDCM, SDBG, DS, ACPI, TM, EST: IA32_PERF_CAPABILITIES, DEBUG_INTERFACE,
 *     DS_AREA, thermal and frequency MSRs
 *   APERF/MPERF (6.ECX[0]), HwPstate/CPB (0x80000007): the P-state MSRs
 *   PQM/PQE (7.0:EBX[12,15]) and leaves 0xF/0x10: resctrl's unchecked
 *     wrmsr(PQR_ASSOC) and rdmsr(QM_CTR)
 *   BUS_LOCK_DETECT (7.0:ECX[24]): DEBUGCTL, accessed unchecked
 *   ARCH_CAPABILITIES, CORE_CAPABILITIES, FLUSH_L1D, SRBDS_CTRL: their MSRs
 *   WAITPKG: UMWAIT_CONTROL; CET, UINTR, PCONFIG, TME, KL, ENQCMD, SGX, PT,
 *     ARCH_LBR, AMX, MPX, HRESET, FRED, LKGS, LAM, WRMSRNS: host state or
 *     MSRs minhv does not switch
 *   XSAVES, XFD (0xD.1): IA32_XSS and IA32_XFD are not switched
 *   SVM, SKINIT, 0x8000000A: no nested virtualisation
 *   OSVW, IBS, LWP, WDT, NodeId, TCE, FFXSR, DataBkptExt, PerfTsc, the NB
 *     and LLC counter extensions, IRPERF, PPIN, CPPC: their MSRs or EFER
 *     bits (minhv's EFER allows SCE, LME, LMA, NXE only)
 *   ExtApicSpace: the vLAPIC has no extended registers
 *   INVLPGB/TLBSYNC: #UD unless the VMCB enables them, which minhv does not
 *   RDPRU, MCOMMIT, MBE, VIRT_SSBD, PSFD: MSRs or SPEC_CTRL bits (minhv's
 *     SPEC_CTRL allows IBRS, STIBP, SSBD only)
 */
#include "hv/cpuid/internal.h"
#include "arch/cpuid.h"
#include "arch/xcr0.h"

/* What a group of bits needs beyond the host having it. */
enum need {
	NEED_NONE,
	NEED_AVX, /* the guest may enable XCR0.AVX (VEX encodings) */
	NEED_AVX512, /* ... and the three AVX-512 components */
	NEED_PKRU, /* ... and PKRU (RDPKRU/WRPKRU state) */
	NEED_XSAVE, /* minhv switches XSAVE state at all */
	NEED_PMU, /* the core counter MSRs (multiboot guests, hv/view/pmu.c) */
	NEED_TSC_ADJUST, /* IA32_TSC_ADJUST emulated (platform guests) */
	NEED_PKS, /* IA32_PKRS switched per vCPU (vcpu_pkrs.c) */
};

struct allow {
	u32 leaf;
	u8 sub;
	u8 reg; /* enum cpuid_reg */
	u8 need; /* enum need */
	u32 bits;
};

/* clang-format off */
static const struct allow allow[] = {
	/* Leaf 1: family/model/stepping; EBX is topology.c's. */
	{ 1, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 1, 0, CR_ECX, NEED_NONE,
	  CPUID_1_ECX_SSE3 | CPUID_1_ECX_PCLMULQDQ | CPUID_1_ECX_SSSE3 |
	  CPUID_1_ECX_CX16 | CPUID_1_ECX_PCID | CPUID_1_ECX_SSE4_1 |
	  CPUID_1_ECX_SSE4_2 | CPUID_1_ECX_X2APIC | CPUID_1_ECX_MOVBE |
	  CPUID_1_ECX_POPCNT | CPUID_1_ECX_AES | CPUID_1_ECX_RDRAND },
	{ 1, 0, CR_ECX, NEED_XSAVE, CPUID_1_ECX_XSAVE },
	{ 1, 0, CR_ECX, NEED_AVX,
	  CPUID_1_ECX_FMA | CPUID_1_ECX_AVX | CPUID_1_ECX_F16C },
	{ 1, 0, CR_EDX, NEED_NONE,
	  CPUID_1_EDX_FPU | CPUID_1_EDX_VME | CPUID_1_EDX_DE |
	  CPUID_1_EDX_PSE | CPUID_1_EDX_TSC | CPUID_1_EDX_MSR |
	  CPUID_1_EDX_PAE | CPUID_1_EDX_CX8 | CPUID_1_EDX_APIC |
	  CPUID_1_EDX_SEP | CPUID_1_EDX_MTRR | CPUID_1_EDX_PGE |
	  CPUID_1_EDX_CMOV | CPUID_1_EDX_PAT | CPUID_1_EDX_PSE36 |
	  CPUID_1_EDX_CLFSH | CPUID_1_EDX_MMX | CPUID_1_EDX_FXSR |
	  CPUID_1_EDX_SSE | CPUID_1_EDX_SSE2 | CPUID_1_EDX_SS },

	/* Leaf 6: ARAT only (the vLAPIC timer never stops). */
	{ 6, 0, CR_EAX, NEED_NONE, CPUID_6_EAX_ARAT },

	/* Leaf 7.0 (EAX, the subleaf count, is model.c's). */
	{ 7, 0, CR_EBX, NEED_NONE,
	  CPUID_7_0_EBX_FSGSBASE | CPUID_7_0_EBX_BMI1 | CPUID_7_0_EBX_HLE |
	  CPUID_7_0_EBX_FDP_EXCPTN_ONLY | CPUID_7_0_EBX_SMEP |
	  CPUID_7_0_EBX_BMI2 | CPUID_7_0_EBX_ERMS | CPUID_7_0_EBX_INVPCID |
	  CPUID_7_0_EBX_RTM | CPUID_7_0_EBX_ZERO_FCS_FDS |
	  CPUID_7_0_EBX_RDSEED | CPUID_7_0_EBX_ADX | CPUID_7_0_EBX_SMAP |
	  CPUID_7_0_EBX_CLFLUSHOPT | CPUID_7_0_EBX_CLWB | CPUID_7_0_EBX_SHA },
	{ 7, 0, CR_EBX, NEED_TSC_ADJUST, CPUID_7_0_EBX_TSC_ADJUST },
	{ 7, 0, CR_EBX, NEED_AVX, CPUID_7_0_EBX_AVX2 },
	{ 7, 0, CR_EBX, NEED_AVX512,
	  CPUID_7_0_EBX_AVX512F | CPUID_7_0_EBX_AVX512DQ |
	  CPUID_7_0_EBX_AVX512IFMA | CPUID_7_0_EBX_AVX512PF |
	  CPUID_7_0_EBX_AVX512ER | CPUID_7_0_EBX_AVX512CD |
	  CPUID_7_0_EBX_AVX512BW | CPUID_7_0_EBX_AVX512VL },
	{ 7, 0, CR_ECX, NEED_NONE,
	  CPUID_7_0_ECX_UMIP | CPUID_7_0_ECX_GFNI | CPUID_7_0_ECX_LA57 |
	  CPUID_7_0_ECX_RDPID | CPUID_7_0_ECX_CLDEMOTE |
	  CPUID_7_0_ECX_MOVDIRI | CPUID_7_0_ECX_MOVDIR64B },
	{ 7, 0, CR_ECX, NEED_AVX,
	  CPUID_7_0_ECX_VAES | CPUID_7_0_ECX_VPCLMULQDQ },
	{ 7, 0, CR_ECX, NEED_AVX512,
	  CPUID_7_0_ECX_AVX512VBMI | CPUID_7_0_ECX_AVX512_VBMI2 |
	  CPUID_7_0_ECX_AVX512_VNNI | CPUID_7_0_ECX_AVX512_BITALG |
	  CPUID_7_0_ECX_AVX512_VPOPCNTDQ },
	{ 7, 0, CR_ECX, NEED_PKRU, CPUID_7_0_ECX_PKU },
	{ 7, 0, CR_ECX, NEED_PKS, CPUID_7_0_ECX_PKS },
	/* SPEC_CTRL, STIBP, SSBD: IA32_SPEC_CTRL and PRED_CMD are the
	 * guest's (vcpu_spec.c, exit_msr.c). */
	{ 7, 0, CR_EDX, NEED_NONE,
	  CPUID_7_0_EDX_FSRM | CPUID_7_0_EDX_MD_CLEAR |
	  CPUID_7_0_EDX_SERIALIZE | CPUID_7_0_EDX_TSXLDTRK |
	  CPUID_7_0_EDX_SPEC_CTRL | CPUID_7_0_EDX_STIBP |
	  CPUID_7_0_EDX_SSBD },
	{ 7, 0, CR_EDX, NEED_AVX512,
	  CPUID_7_0_EDX_AVX512_4VNNIW | CPUID_7_0_EDX_AVX512_4FMAPS |
	  CPUID_7_0_EDX_AVX512_VP2INTERSECT | CPUID_7_0_EDX_AVX512_FP16 },

	/* Leaf 7.1 */
	{ 7, 1, CR_EAX, NEED_NONE,
	  CPUID_7_1_EAX_SHA512 | CPUID_7_1_EAX_SM3 | CPUID_7_1_EAX_SM4 |
	  CPUID_7_1_EAX_CMPCCXADD | CPUID_7_1_EAX_FZRM |
	  CPUID_7_1_EAX_FSRS | CPUID_7_1_EAX_FSRC },
	{ 7, 1, CR_EAX, NEED_AVX,
	  CPUID_7_1_EAX_AVX_VNNI | CPUID_7_1_EAX_AVX_IFMA },
	{ 7, 1, CR_EAX, NEED_AVX512, CPUID_7_1_EAX_AVX512_BF16 },
	{ 7, 1, CR_EDX, NEED_NONE, CPUID_7_1_EDX_PREFETCHITI },
	{ 7, 1, CR_EDX, NEED_AVX,
	  CPUID_7_1_EDX_AVX_VNNI_INT8 | CPUID_7_1_EDX_AVX_NE_CONVERT |
	  CPUID_7_1_EDX_AVX_VNNI_INT16 },

	/* Leaf 0x80000001: signature and brand/package fields; CmpLegacy
	 * is topology (model.c). */
	{ 0x80000001, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 0x80000001, 0, CR_EBX, NEED_NONE, ~CPUID_81_EBX_RESERVED },
	{ 0x80000001, 0, CR_ECX, NEED_NONE,
	  CPUID_81_ECX_LAHF_SAHF | CPUID_81_ECX_ALT_MOV_CR8 |
	  CPUID_81_ECX_ABM | CPUID_81_ECX_SSE4A | CPUID_81_ECX_MISALIGN_SSE |
	  CPUID_81_ECX_3DNOW_PREFETCH | CPUID_81_ECX_TBM |
	  CPUID_81_ECX_TOPOEXT },
	{ 0x80000001, 0, CR_ECX, NEED_AVX,
	  CPUID_81_ECX_XOP | CPUID_81_ECX_FMA4 },
	{ 0x80000001, 0, CR_ECX, NEED_PMU, CPUID_81_ECX_PERFCTR_CORE },
	{ 0x80000001, 0, CR_EDX, NEED_NONE,
	  CPUID_1_EDX_FPU | CPUID_1_EDX_VME | CPUID_1_EDX_DE |
	  CPUID_1_EDX_PSE | CPUID_1_EDX_TSC | CPUID_1_EDX_MSR |
	  CPUID_1_EDX_PAE | CPUID_1_EDX_CX8 | CPUID_1_EDX_APIC |
	  CPUID_81_EDX_SYSCALL | CPUID_1_EDX_MTRR | CPUID_1_EDX_PGE |
	  CPUID_1_EDX_CMOV | CPUID_1_EDX_PAT | CPUID_1_EDX_PSE36 |
	  CPUID_81_EDX_NX | CPUID_81_EDX_MMXEXT | CPUID_1_EDX_MMX |
	  CPUID_1_EDX_FXSR | CPUID_81_EDX_PAGE1GB | CPUID_81_EDX_RDTSCP |
	  CPUID_81_EDX_LM | CPUID_81_EDX_3DNOWEXT | CPUID_81_EDX_3DNOW },

	/* Brand string, L1/L2/L3 cache and TLB descriptions. */
	{ 0x80000002, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 0x80000002, 0, CR_EBX, NEED_NONE, 0xffffffffu },
	{ 0x80000002, 0, CR_ECX, NEED_NONE, 0xffffffffu },
	{ 0x80000002, 0, CR_EDX, NEED_NONE, 0xffffffffu },
	{ 0x80000003, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 0x80000003, 0, CR_EBX, NEED_NONE, 0xffffffffu },
	{ 0x80000003, 0, CR_ECX, NEED_NONE, 0xffffffffu },
	{ 0x80000003, 0, CR_EDX, NEED_NONE, 0xffffffffu },
	{ 0x80000004, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 0x80000004, 0, CR_EBX, NEED_NONE, 0xffffffffu },
	{ 0x80000004, 0, CR_ECX, NEED_NONE, 0xffffffffu },
	{ 0x80000004, 0, CR_EDX, NEED_NONE, 0xffffffffu },
	{ 0x80000005, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 0x80000005, 0, CR_EBX, NEED_NONE, 0xffffffffu },
	{ 0x80000005, 0, CR_ECX, NEED_NONE, 0xffffffffu },
	{ 0x80000005, 0, CR_EDX, NEED_NONE, 0xffffffffu },
	{ 0x80000006, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 0x80000006, 0, CR_EBX, NEED_NONE, 0xffffffffu },
	{ 0x80000006, 0, CR_ECX, NEED_NONE, 0xffffffffu },
	{ 0x80000006, 0, CR_EDX, NEED_NONE, ~CPUID_86_EDX_RESERVED },

	/* The TSC runs at a constant rate, the guest's is host + offset. */
	{ 0x80000007, 0, CR_EDX, NEED_NONE, CPUID_87_EDX_INVARIANT_TSC },

	/* Address sizes; ECX (core count, APIC ID size) is topology.c's. */
	{ 0x80000008, 0, CR_EAX, NEED_NONE, CPUID_88_EAX_PHYS_LIN },
	{ 0x80000008, 0, CR_EBX, NEED_NONE,
	  CPUID_88_EBX_CLZERO | CPUID_88_EBX_XSAVEERPTR |
	  CPUID_88_EBX_WBNOINVD | CPUID_88_EBX_IBPB | CPUID_88_EBX_IBRS |
	  CPUID_88_EBX_STIBP | CPUID_88_EBX_IBRS_ALWAYS_ON |
	  CPUID_88_EBX_STIBP_ALWAYS_ON | CPUID_88_EBX_IBRS_PREFERRED |
	  CPUID_88_EBX_IBRS_SAME_MODE | CPUID_88_EBX_NO_EFER_LMSLE |
	  CPUID_88_EBX_SSBD | CPUID_88_EBX_SSB_NO | CPUID_88_EBX_BTC_NO |
	  CPUID_88_EBX_IBPB_RET },

	/* 1 GiB page TLB description; FP performance hints. */
	{ 0x80000019, 0, CR_EAX, NEED_NONE, 0xffffffffu },
	{ 0x80000019, 0, CR_EBX, NEED_NONE, 0xffffffffu },
	{ 0x8000001a, 0, CR_EAX, NEED_NONE, CPUID_8A_EAX_FP_OPT },
};
/* clang-format on */

static bool have(const struct cpuid_vcpu *v, enum need n)
{
	const u64 x = v->xcr0_allowed;

	switch (n) {
	case NEED_NONE:
		return true;
	case NEED_XSAVE:
		return x != 0;
	case NEED_AVX:
		return (x & (XCR0_SSE | XCR0_AVX)) == (XCR0_SSE | XCR0_AVX);
	case NEED_AVX512:
		return have(v, NEED_AVX) && (x & XCR0_AVX512) == XCR0_AVX512;
	case NEED_PKRU:
		return (x & XCR0_PKRU) != 0;
	case NEED_PMU:
		return v->kind == CPUID_GUEST_MULTIBOOT;
	case NEED_TSC_ADJUST:
		return cpuid_platform(v) && v->tsc_adjust;
	case NEED_PKS:
		return v->pks;
	}
	return false;
}

u32 cpuid_allowed(const struct cpuid_vcpu *v, u32 leaf, u32 sub,
		  enum cpuid_reg reg)
{
	u32 bits = 0;

	for (size_t i = 0; i < ARRAY_SIZE(allow); i++) {
		const struct allow *a = &allow[i];

		if (a->leaf == leaf && a->sub == sub && a->reg == reg &&
		    have(v, (enum need)a->need))
			bits |= a->bits;
	}
	return bits;
}
