/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/cpuid.h - CPUID leaves and feature bits (AMD APM vol 3 appendix E,
 * Intel SDM vol 2A "CPUID"): the names the guest CPUID model (hv/cpuid/)
 * allow-lists and synthesises. One definition per bit, by leaf, subleaf
 * and register. */
#ifndef MINHV_ARCH_CPUID_H
#define MINHV_ARCH_CPUID_H

#include "arch/types.h"

/* clang-format off */

/* Leaf 1 ECX */
#define CPUID_1_ECX_SSE3		BIT(0)
#define CPUID_1_ECX_PCLMULQDQ		BIT(1)
#define CPUID_1_ECX_DTES64		BIT(2)
#define CPUID_1_ECX_MONITOR		BIT(3)
#define CPUID_1_ECX_DS_CPL		BIT(4)
#define CPUID_1_ECX_VMX			BIT(5)
#define CPUID_1_ECX_SMX			BIT(6)
#define CPUID_1_ECX_EST			BIT(7)
#define CPUID_1_ECX_TM2			BIT(8)
#define CPUID_1_ECX_SSSE3		BIT(9)
#define CPUID_1_ECX_CNXT_ID		BIT(10)
#define CPUID_1_ECX_SDBG		BIT(11)
#define CPUID_1_ECX_FMA			BIT(12)
#define CPUID_1_ECX_CX16		BIT(13)
#define CPUID_1_ECX_XTPR		BIT(14)
#define CPUID_1_ECX_PDCM		BIT(15)
#define CPUID_1_ECX_PCID		BIT(17)
#define CPUID_1_ECX_DCA			BIT(18)
#define CPUID_1_ECX_SSE4_1		BIT(19)
#define CPUID_1_ECX_SSE4_2		BIT(20)
#define CPUID_1_ECX_X2APIC		BIT(21)
#define CPUID_1_ECX_MOVBE		BIT(22)
#define CPUID_1_ECX_POPCNT		BIT(23)
#define CPUID_1_ECX_TSC_DEADLINE	BIT(24)
#define CPUID_1_ECX_AES			BIT(25)
#define CPUID_1_ECX_XSAVE		BIT(26)
#define CPUID_1_ECX_OSXSAVE		BIT(27)
#define CPUID_1_ECX_AVX			BIT(28)
#define CPUID_1_ECX_F16C		BIT(29)
#define CPUID_1_ECX_RDRAND		BIT(30)
#define CPUID_1_ECX_HYPERVISOR		BIT(31)

/* Leaf 1 EDX (bits 0-17 and 23-24 are aliased in 0x80000001 EDX on AMD) */
#define CPUID_1_EDX_FPU			BIT(0)
#define CPUID_1_EDX_VME			BIT(1)
#define CPUID_1_EDX_DE			BIT(2)
#define CPUID_1_EDX_PSE			BIT(3)
#define CPUID_1_EDX_TSC			BIT(4)
#define CPUID_1_EDX_MSR			BIT(5)
#define CPUID_1_EDX_PAE			BIT(6)
#define CPUID_1_EDX_MCE			BIT(7)
#define CPUID_1_EDX_CX8			BIT(8)
#define CPUID_1_EDX_APIC		BIT(9)
#define CPUID_1_EDX_SEP			BIT(11)
#define CPUID_1_EDX_MTRR		BIT(12)
#define CPUID_1_EDX_PGE			BIT(13)
#define CPUID_1_EDX_MCA			BIT(14)
#define CPUID_1_EDX_CMOV		BIT(15)
#define CPUID_1_EDX_PAT			BIT(16)
#define CPUID_1_EDX_PSE36		BIT(17)
#define CPUID_1_EDX_PSN			BIT(18)
#define CPUID_1_EDX_CLFSH		BIT(19)
#define CPUID_1_EDX_DS			BIT(21)
#define CPUID_1_EDX_ACPI		BIT(22)
#define CPUID_1_EDX_MMX			BIT(23)
#define CPUID_1_EDX_FXSR		BIT(24)
#define CPUID_1_EDX_SSE			BIT(25)
#define CPUID_1_EDX_SSE2		BIT(26)
#define CPUID_1_EDX_SS			BIT(27)
#define CPUID_1_EDX_HTT			BIT(28)
#define CPUID_1_EDX_TM			BIT(29)
#define CPUID_1_EDX_PBE			BIT(31)

/* Leaf 1 EBX fields */
#define CPUID_1_EBX_CLFLUSH_SIZE	0x0000ff00u /* 15:8, in 8-byte units */
#define CPUID_1_EBX_NPROC_SHIFT		16 /* 23:16 logical processors */
#define CPUID_1_EBX_APIC_ID_SHIFT	24 /* 31:24 initial APIC ID */

/* Leaf 4 EAX (Intel deterministic cache parameters; reserved on AMD) */
#define CPUID_4_EAX_TYPE		0x0000001fu /* 0: no more caches */
#define CPUID_4_EAX_LEVEL_SHIFT		5 /* 7:5 */
#define CPUID_4_EAX_SHARING_SHIFT	14 /* 25:14 threads sharing - 1 */
#define CPUID_4_EAX_CORES_SHIFT		26 /* 31:26 cores per package - 1 */

/* Leaf 6 EAX */
#define CPUID_6_EAX_ARAT		BIT(2) /* APIC timer runs in C-states */
/* Leaf 6 ECX */
#define CPUID_6_ECX_APERFMPERF		BIT(0)

/* Leaf 7 subleaf 0 EBX */
#define CPUID_7_0_EBX_FSGSBASE		BIT(0)
#define CPUID_7_0_EBX_TSC_ADJUST	BIT(1)
#define CPUID_7_0_EBX_SGX		BIT(2)
#define CPUID_7_0_EBX_BMI1		BIT(3)
#define CPUID_7_0_EBX_HLE		BIT(4)
#define CPUID_7_0_EBX_AVX2		BIT(5)
#define CPUID_7_0_EBX_FDP_EXCPTN_ONLY	BIT(6)
#define CPUID_7_0_EBX_SMEP		BIT(7)
#define CPUID_7_0_EBX_BMI2		BIT(8)
#define CPUID_7_0_EBX_ERMS		BIT(9)
#define CPUID_7_0_EBX_INVPCID		BIT(10)
#define CPUID_7_0_EBX_RTM		BIT(11)
#define CPUID_7_0_EBX_PQM		BIT(12) /* RDT monitoring, leaf 0xF */
#define CPUID_7_0_EBX_ZERO_FCS_FDS	BIT(13)
#define CPUID_7_0_EBX_MPX		BIT(14)
#define CPUID_7_0_EBX_PQE		BIT(15) /* RDT allocation, leaf 0x10 */
#define CPUID_7_0_EBX_AVX512F		BIT(16)
#define CPUID_7_0_EBX_AVX512DQ		BIT(17)
#define CPUID_7_0_EBX_RDSEED		BIT(18)
#define CPUID_7_0_EBX_ADX		BIT(19)
#define CPUID_7_0_EBX_SMAP		BIT(20)
#define CPUID_7_0_EBX_AVX512IFMA	BIT(21)
#define CPUID_7_0_EBX_CLFLUSHOPT	BIT(23)
#define CPUID_7_0_EBX_CLWB		BIT(24)
#define CPUID_7_0_EBX_INTEL_PT		BIT(25)
#define CPUID_7_0_EBX_AVX512PF		BIT(26)
#define CPUID_7_0_EBX_AVX512ER		BIT(27)
#define CPUID_7_0_EBX_AVX512CD		BIT(28)
#define CPUID_7_0_EBX_SHA		BIT(29)
#define CPUID_7_0_EBX_AVX512BW		BIT(30)
#define CPUID_7_0_EBX_AVX512VL		BIT(31)

/* Leaf 7 subleaf 0 ECX */
#define CPUID_7_0_ECX_AVX512VBMI	BIT(1)
#define CPUID_7_0_ECX_UMIP		BIT(2)
#define CPUID_7_0_ECX_PKU		BIT(3)
#define CPUID_7_0_ECX_OSPKE		BIT(4)
#define CPUID_7_0_ECX_WAITPKG		BIT(5)
#define CPUID_7_0_ECX_AVX512_VBMI2	BIT(6)
#define CPUID_7_0_ECX_CET_SS		BIT(7)
#define CPUID_7_0_ECX_GFNI		BIT(8)
#define CPUID_7_0_ECX_VAES		BIT(9)
#define CPUID_7_0_ECX_VPCLMULQDQ	BIT(10)
#define CPUID_7_0_ECX_AVX512_VNNI	BIT(11)
#define CPUID_7_0_ECX_AVX512_BITALG	BIT(12)
#define CPUID_7_0_ECX_TME		BIT(13)
#define CPUID_7_0_ECX_AVX512_VPOPCNTDQ	BIT(14)
#define CPUID_7_0_ECX_LA57		BIT(16)
#define CPUID_7_0_ECX_RDPID		BIT(22)
#define CPUID_7_0_ECX_KL		BIT(23)
#define CPUID_7_0_ECX_BUS_LOCK_DETECT	BIT(24)
#define CPUID_7_0_ECX_CLDEMOTE		BIT(25)
#define CPUID_7_0_ECX_MOVDIRI		BIT(27)
#define CPUID_7_0_ECX_MOVDIR64B		BIT(28)
#define CPUID_7_0_ECX_ENQCMD		BIT(29)
#define CPUID_7_0_ECX_SGX_LC		BIT(30)
#define CPUID_7_0_ECX_PKS		BIT(31)

/* Leaf 7 subleaf 0 EDX */
#define CPUID_7_0_EDX_AVX512_4VNNIW	BIT(2)
#define CPUID_7_0_EDX_AVX512_4FMAPS	BIT(3)
#define CPUID_7_0_EDX_FSRM		BIT(4)
#define CPUID_7_0_EDX_UINTR		BIT(5)
#define CPUID_7_0_EDX_AVX512_VP2INTERSECT BIT(8)
#define CPUID_7_0_EDX_SRBDS_CTRL	BIT(9)
#define CPUID_7_0_EDX_MD_CLEAR		BIT(10)
#define CPUID_7_0_EDX_SERIALIZE		BIT(14)
#define CPUID_7_0_EDX_HYBRID		BIT(15)
#define CPUID_7_0_EDX_TSXLDTRK		BIT(16)
#define CPUID_7_0_EDX_PCONFIG		BIT(18)
#define CPUID_7_0_EDX_ARCH_LBR		BIT(19)
#define CPUID_7_0_EDX_CET_IBT		BIT(20)
#define CPUID_7_0_EDX_AMX_BF16		BIT(22)
#define CPUID_7_0_EDX_AVX512_FP16	BIT(23)
#define CPUID_7_0_EDX_AMX_TILE		BIT(24)
#define CPUID_7_0_EDX_AMX_INT8		BIT(25)
#define CPUID_7_0_EDX_SPEC_CTRL		BIT(26) /* IBRS and IBPB */
#define CPUID_7_0_EDX_STIBP		BIT(27)
#define CPUID_7_0_EDX_FLUSH_L1D		BIT(28) /* IA32_FLUSH_CMD */
#define CPUID_7_0_EDX_ARCH_CAPABILITIES	BIT(29)
#define CPUID_7_0_EDX_CORE_CAPABILITIES	BIT(30)
#define CPUID_7_0_EDX_SSBD		BIT(31)

/* Leaf 7 subleaf 1 EAX, EDX */
#define CPUID_7_1_EAX_SHA512		BIT(0)
#define CPUID_7_1_EAX_SM3		BIT(1)
#define CPUID_7_1_EAX_SM4		BIT(2)
#define CPUID_7_1_EAX_AVX_VNNI		BIT(4)
#define CPUID_7_1_EAX_AVX512_BF16	BIT(5)
#define CPUID_7_1_EAX_CMPCCXADD		BIT(7)
#define CPUID_7_1_EAX_FZRM		BIT(10)
#define CPUID_7_1_EAX_FSRS		BIT(11)
#define CPUID_7_1_EAX_FSRC		BIT(12)
#define CPUID_7_1_EAX_FRED		BIT(17)
#define CPUID_7_1_EAX_LKGS		BIT(18)
#define CPUID_7_1_EAX_WRMSRNS		BIT(19)
#define CPUID_7_1_EAX_AMX_FP16		BIT(21)
#define CPUID_7_1_EAX_HRESET		BIT(22)
#define CPUID_7_1_EAX_AVX_IFMA		BIT(23)
#define CPUID_7_1_EAX_LAM		BIT(26)
#define CPUID_7_1_EDX_AVX_VNNI_INT8	BIT(4)
#define CPUID_7_1_EDX_AVX_NE_CONVERT	BIT(5)
#define CPUID_7_1_EDX_AVX_VNNI_INT16	BIT(10)
#define CPUID_7_1_EDX_PREFETCHITI	BIT(14)

/* Leaves 0xB and 0x1F (extended topology), every subleaf */
#define CPUID_TOPO_EAX_SHIFT		0x1fu /* 4:0 x2APIC ID shift */
#define CPUID_TOPO_EBX_NPROC		0xffffu /* 15:0 processors at level */
#define CPUID_TOPO_ECX_TYPE_SHIFT	8 /* 15:8 level type */
#define CPUID_TOPO_TYPE_SMT		1
#define CPUID_TOPO_TYPE_CORE		2

/* Leaf 0xD subleaf 1 EAX */
#define CPUID_D_1_EAX_XSAVEOPT		BIT(0)
#define CPUID_D_1_EAX_XSAVEC		BIT(1)
#define CPUID_D_1_EAX_XGETBV1		BIT(2)
#define CPUID_D_1_EAX_XSAVES		BIT(3)
#define CPUID_D_1_EAX_XFD		BIT(4)
/* Leaf 0xD subleaf n >= 2 ECX */
#define CPUID_D_N_ECX_SUPERVISOR	BIT(0) /* IA32_XSS, not XCR0 */
#define CPUID_D_N_ECX_ALIGN64		BIT(1) /* 64-byte aligned if compacted */
#define CPUID_D_N_ECX_XFD		BIT(2)

/* 0x80000001 ECX */
#define CPUID_81_ECX_LAHF_SAHF		BIT(0)
#define CPUID_81_ECX_CMP_LEGACY		BIT(1)
#define CPUID_81_ECX_SVM		BIT(2)
#define CPUID_81_ECX_EXT_APIC_SPACE	BIT(3)
#define CPUID_81_ECX_ALT_MOV_CR8	BIT(4)
#define CPUID_81_ECX_ABM		BIT(5)
#define CPUID_81_ECX_SSE4A		BIT(6)
#define CPUID_81_ECX_MISALIGN_SSE	BIT(7)
#define CPUID_81_ECX_3DNOW_PREFETCH	BIT(8)
#define CPUID_81_ECX_OSVW		BIT(9)
#define CPUID_81_ECX_IBS		BIT(10)
#define CPUID_81_ECX_XOP		BIT(11)
#define CPUID_81_ECX_SKINIT		BIT(12)
#define CPUID_81_ECX_WDT		BIT(13)
#define CPUID_81_ECX_LWP		BIT(15)
#define CPUID_81_ECX_FMA4		BIT(16)
#define CPUID_81_ECX_TCE		BIT(17)
#define CPUID_81_ECX_NODE_ID_MSR	BIT(19)
#define CPUID_81_ECX_TBM		BIT(21)
#define CPUID_81_ECX_TOPOEXT		BIT(22)
#define CPUID_81_ECX_PERFCTR_CORE	BIT(23)
#define CPUID_81_ECX_PERFCTR_NB		BIT(24)
#define CPUID_81_ECX_DATA_BP_EXT	BIT(26)
#define CPUID_81_ECX_PERF_TSC		BIT(27)
#define CPUID_81_ECX_PERFCTR_LLC	BIT(28)
#define CPUID_81_ECX_MWAITX		BIT(29)
#define CPUID_81_ECX_ADDR_MASK_EXT	BIT(30)

/* 0x80000001 EDX (AMD-only bits; the rest alias leaf 1 EDX) */
#define CPUID_81_EDX_SYSCALL		BIT(11)
#define CPUID_81_EDX_NX			BIT(20)
#define CPUID_81_EDX_MMXEXT		BIT(22)
#define CPUID_81_EDX_FFXSR		BIT(25)
#define CPUID_81_EDX_PAGE1GB		BIT(26)
#define CPUID_81_EDX_RDTSCP		BIT(27)
#define CPUID_81_EDX_LM			BIT(29)
#define CPUID_81_EDX_3DNOWEXT		BIT(30)
#define CPUID_81_EDX_3DNOW		BIT(31)

/* 0x80000001 EBX */
#define CPUID_81_EBX_RESERVED		0x0fff0000u /* 27:16 */

/* 0x80000006 EDX */
#define CPUID_86_EDX_RESERVED		0x00030000u /* 17:16 */

/* 0x80000007 EDX (advanced power management) */
#define CPUID_87_EDX_HW_PSTATE		BIT(7)
#define CPUID_87_EDX_INVARIANT_TSC	BIT(8)
#define CPUID_87_EDX_CPB		BIT(9)

/* 0x80000008 EAX */
#define CPUID_88_EAX_PHYS_LIN		0x0000ffffu /* 7:0 phys, 15:8 linear */
/* 0x80000008 EBX */
#define CPUID_88_EBX_CLZERO		BIT(0)
#define CPUID_88_EBX_IRPERF		BIT(1)
#define CPUID_88_EBX_XSAVEERPTR		BIT(2)
#define CPUID_88_EBX_INVLPGB		BIT(3)
#define CPUID_88_EBX_RDPRU		BIT(4)
#define CPUID_88_EBX_MBE		BIT(6)
#define CPUID_88_EBX_MCOMMIT		BIT(8)
#define CPUID_88_EBX_WBNOINVD		BIT(9)
#define CPUID_88_EBX_IBPB		BIT(12)
#define CPUID_88_EBX_INT_WBINVD		BIT(13)
#define CPUID_88_EBX_IBRS		BIT(14)
#define CPUID_88_EBX_STIBP		BIT(15)
#define CPUID_88_EBX_IBRS_ALWAYS_ON	BIT(16)
#define CPUID_88_EBX_STIBP_ALWAYS_ON	BIT(17)
#define CPUID_88_EBX_IBRS_PREFERRED	BIT(18)
#define CPUID_88_EBX_IBRS_SAME_MODE	BIT(19)
#define CPUID_88_EBX_NO_EFER_LMSLE	BIT(20)
#define CPUID_88_EBX_TLB_FLUSH_NESTED	BIT(21) /* INVLPGB of nested translations */
#define CPUID_88_EBX_PPIN		BIT(23)
#define CPUID_88_EBX_SSBD		BIT(24)
#define CPUID_88_EBX_VIRT_SSBD		BIT(25)
#define CPUID_88_EBX_SSB_NO		BIT(26)
#define CPUID_88_EBX_CPPC		BIT(27)
#define CPUID_88_EBX_PSFD		BIT(28)
#define CPUID_88_EBX_BTC_NO		BIT(29)
#define CPUID_88_EBX_IBPB_RET		BIT(30)
/* 0x80000008 ECX */
#define CPUID_88_ECX_NC			0x000000ffu /* 7:0 threads - 1 */
#define CPUID_88_ECX_APIC_ID_SIZE_SHIFT	12 /* 15:12 APIC ID bits per package */

/* 0x8000001A EAX (performance optimisation identifiers) */
#define CPUID_8A_EAX_FP_OPT		0x00000007u /* FP128, MOVU, FP256 */

/* 0x8000001D EAX (AMD cache topology), as leaf 4's low fields */
#define CPUID_8D_EAX_SHARING_SHIFT	14 /* 25:14 threads sharing - 1 */

/* 0x8000001E EBX, ECX */
#define CPUID_8E_EBX_THREADS_SHIFT	8 /* 15:8 threads per core - 1 */

/* clang-format on */

#endif
