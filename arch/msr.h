/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/msr.h - architectural MSR numbers and bits (Intel SDM vol 4,
 * AMD APM vol 2 appendix A). Only constants; no code. */
#ifndef MINHV_ARCH_MSR_H
#define MINHV_ARCH_MSR_H

#include "arch/types.h"

#define MSR_TSC 0x10
#define MSR_APIC_BASE 0x1b /* IA32_APIC_BASE */
#define APIC_BASE_BSP (1ULL << 8)
#define APIC_BASE_EXTD (1ULL << 10) /* x2APIC mode */
#define APIC_BASE_EN (1ULL << 11)
#define MSR_TSC_ADJUST 0x3b /* IA32_TSC_ADJUST (SDM 17.17.3) */
#define MSR_SPEC_CTRL 0x48
#define SPEC_CTRL_IBRS (1ULL << 0)
#define SPEC_CTRL_STIBP (1ULL << 1)
#define SPEC_CTRL_SSBD (1ULL << 2)
#define MSR_PRED_CMD 0x49
#define PRED_CMD_IBPB (1ULL << 0) /* indirect branch prediction barrier */
#define MSR_AMD_PATCH_LEVEL 0x8b /* microcode patch level */
#define MSR_MTRRCAP 0xfe
#define MSR_SYSENTER_CS 0x174
#define MSR_SYSENTER_ESP 0x175
#define MSR_SYSENTER_EIP 0x176
/* Machine-check architecture (APM vol 2 9.3, SDM vol 3B ch. 16): the
 * global MCG_* MSRs, then bank i's CTL, STATUS, ADDR and MISC at 0x400 + 4i
 * (the legacy addresses, which Zen's SMCA keeps as aliases of its banks). */
#define MSR_MCG_CAP 0x179
#define MCG_CAP_COUNT_MASK 0xffULL /* [7:0]: number of banks */
#define MCG_CAP_CTL_P BIT(8) /* MCG_CTL present */
#define MSR_MCG_STATUS 0x17a
#define MCG_STATUS_RIPV BIT(0) /* restart at the pushed RIP is safe */
#define MCG_STATUS_EIPV BIT(1) /* the pushed RIP is where it happened */
#define MCG_STATUS_MCIP BIT(2) /* #MC in progress: a second one shuts down */
#define MSR_MCG_CTL 0x17b
#define MSR_MC_CTL(i) (0x400 + 4 * (i))
#define MSR_MC_STATUS(i) (0x401 + 4 * (i))
#define MSR_MC_ADDR(i) (0x402 + 4 * (i))
#define MSR_MC_MISC(i) (0x403 + 4 * (i))
#define MCA_MAX_BANKS 32 /* the legacy range ends at 0x47f */
#define MCI_STATUS_VAL BIT(63) /* the bank holds an error */
#define MCI_STATUS_OVER BIT(62) /* more than one: an error was lost */
#define MCI_STATUS_UC BIT(61) /* uncorrected */
#define MCI_STATUS_EN BIT(60) /* signalled as #MC (enabled in MCi_CTL) */
#define MCI_STATUS_MISCV BIT(59) /* MCi_MISC valid */
#define MCI_STATUS_ADDRV BIT(58) /* MCi_ADDR valid */
#define MCI_STATUS_PCC BIT(57) /* processor context corrupt */
#define MSR_PAT 0x277
#define PAT_POWER_ON 0x0007040600070406ULL /* WB WT UC- UC, twice */
#define MSR_MTRR_PHYSBASE(n) (0x200 + 2 * (n))
#define MSR_MTRR_PHYSMASK(n) (0x201 + 2 * (n))
#define MSR_MTRR_FIX64K_00000 0x250
#define MSR_MTRR_FIX16K_80000 0x258
#define MSR_MTRR_FIX16K_A0000 0x259
#define MSR_MTRR_FIX4K_C0000 0x268 /* 0x268..0x26f */
#define MSR_MTRR_DEF_TYPE 0x2ff
/* MTRR fields (SDM vol 3A 11.11.1-11.11.3, table 11-8 for the memory
 * types; 2, 3 and 7+ are reserved). */
#define MTRR_TYPE_UC 0
#define MTRR_TYPE_WC 1
#define MTRR_TYPE_WT 4
#define MTRR_TYPE_WP 5
#define MTRR_TYPE_WB 6
#define MTRRCAP_VCNT(c) ((u32)((c)&0xff))
#define MTRRCAP_FIX (1ULL << 8)
#define MTRRCAP_WC (1ULL << 10)
#define MTRR_DEF_TYPE_TYPE(d) ((u8)((d)&0xff))
#define MTRR_DEF_TYPE_FE (1ULL << 10) /* fixed-range MTRRs enabled */
#define MTRR_DEF_TYPE_E (1ULL << 11) /* MTRRs enabled */
#define MTRR_PHYS_TYPE(b) ((u8)((b)&0xff))
#define MTRR_PHYSMASK_VALID (1ULL << 11)
#define MTRR_ADDR_MASK (~0xfffULL) /* address bits of PHYSBASE/PHYSMASK */
#define MSR_TSC_DEADLINE 0x6e0 /* IA32_TSC_DEADLINE (SDM 11.5.4.1) */
#define MSR_MISC_ENABLE 0x1a0 /* IA32_MISC_ENABLE (SDM vol 4 table 2-2) */
#define MISC_ENABLE_FAST_STRING BIT(0) /* its power-up value in QEMU, KVM */
#define MSR_PKRS 0x6e1 /* IA32_PKRS: supervisor protection keys (SDM 4.6.2) */
#define MSR_X2APIC_BASE 0x800 /* x2APIC register window 0x800..0x8ff */
#define MSR_X2APIC_END 0x8ff

#define MSR_EFER 0xc0000080
#define EFER_SCE (1ULL << 0)
#define EFER_LME (1ULL << 8)
#define EFER_LMA (1ULL << 10)
#define EFER_NXE (1ULL << 11)
#define EFER_SVME (1ULL << 12)
#define EFER_AUTOIBRS (1ULL << 21)
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_CSTAR 0xc0000083
#define MSR_SFMASK 0xc0000084
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102
#define MSR_TSC_AUX 0xc0000103

/* Legacy performance counters (APM vol 2 13.2.1): PerfEvtSel0-3, then
 * PerfCtr0-3; the extended bank interleaves PerfEvtSel/PerfCtr pairs
 * from C001_0200h. */
#define MSR_K7_EVNTSEL0 0xc0010000
#define MSR_K7_PERFCTR0 0xc0010004
#define MSR_K7_PERFCTR3 0xc0010007
#define MSR_F15H_PERF_CTL0 0xc0010200
#define MSR_AMD_SYSCFG 0xc0010010
#define SYSCFG_MTRR_FIX_DRAM_EN (1ULL << 18)
#define SYSCFG_MTRR_FIX_DRAM_MOD_EN (1ULL << 19)
#define SYSCFG_MTRR_VAR_DRAM_EN (1ULL << 20)
#define SYSCFG_MEM_ENCRYPT_EN (1ULL << 23)
#define SYSCFG_SNP_EN (1ULL << 24)
#define SYSCFG_VMPL_EN (1ULL << 25)
#define MSR_AMD_HWCR 0xc0010015
#define HWCR_TSC_FREQ_SEL (1ULL << 24) /* TSC at P0; read-only 1 on Zen */
#define MSR_AMD_TOP_MEM 0xc001001a /* top of memory below 4 GiB */
#define MSR_AMD_TOP_MEM2 0xc001001d /* top of memory above 4 GiB */
#define MSR_AMD_NB_CFG 0xc001001f
#define NB_CFG_CF8_EXT_CFG (1ULL << 46) /* extended config space via CF8 */
#define MSR_AMD_TSEG 0xc0010113 /* SMM TSEG base */
#define MSR_VM_CR 0xc0010114
#define VM_CR_LOCK (1ULL << 3) /* SVMDIS is locked */
#define VM_CR_SVMDIS (1ULL << 4)
#define MSR_VM_HSAVE_PA 0xc0010117
#define MSR_AMD_RMP_BASE 0xc0010132
#define MSR_AMD_RMP_END 0xc0010133
/* RMP_CFG: bit 0 = segmented RMP enabled (RMPOPT needs it; Linux refuses
 * RMPOPT otherwise). */
#define MSR_AMD_RMP_CFG 0xc0010136
#define RMP_CFG_SEGMENTED_EN (1ULL << 0)
#define MSR_AMD_RMPOPT_BASE 0xc0010139
#define MSR_AMD_DE_CFG 0xc0011029
#define DE_CFG_LFENCE_SERIALIZE (1ULL << 1)

#endif
