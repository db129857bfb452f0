/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/features.h - every CPU feature minhv cares about, decided once on the
 * boot CPU from CPUID (never by probing MSRs: QEMU TCG drops unknown ones).
 * The rest of the code reads this structure and never CPUID again. */
#ifndef MINHV_HV_FEATURES_H
#define MINHV_HV_FEATURES_H

#include "arch/cr.h"
#include "arch/types.h"

enum cpu_vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD, VENDOR_HYGON };

struct features {
	enum cpu_vendor vendor;
	char vendor_str[13];
	u32 family, model, stepping;
	u32 max_leaf, max_ext_leaf;

	/* Leaf 1 */
	bool x2apic; /* ECX[21] */
	bool self_snoop; /* EDX[27] */
	bool mtrr; /* EDX[12] */
	bool monitor; /* ECX[3] */
	bool tsc_deadline; /* ECX[24] */
	bool hypervisor; /* ECX[31]: we ourselves run virtualized */
	/* Not CPUID: the machine is QEMU (fw_cfg's "QEMU" signature, read
	 * once by boot/efi_main.c). Only QEMU's own quirks depend on it. */
	bool qemu;
	bool fxsr; /* EDX[24]: FXSAVE/FXRSTOR */
	bool xsave; /* ECX[26]: XSAVE/XRSTOR/XSETBV, CR4.OSXSAVE */
	bool mce; /* EDX[7]: the #MC exception and CR4.MCE */
	bool mca; /* EDX[14]: the machine-check MSRs (MCG_CAP, banks) */
	/* Leaf 0xD.0 (with XSAVE): XCR0 bits the CPU supports (EDX:EAX) and
	 * the XSAVE area size for all of them (ECX). */
	u64 xcr0_supported;
	u32 xsave_size;
	/* Leaf 7.0, any vendor */
	bool pks; /* ECX[31]: CR4.PKS and the IA32_PKRS MSR (0x6E1) */
	bool tsc_adjust; /* EBX[1]: the IA32_TSC_ADJUST MSR (0x3B) */
	bool la57; /* ECX[16]: 5-level paging, 57-bit linear addresses */
	/* The other CR4 enables (features_cr4_valid()): UMIP ECX[2],
	 * FSGSBASE EBX[0], SMEP EBX[7], SMAP EBX[20], PKU ECX[3], CET
	 * (shadow stacks ECX[7] or IBT EDX[20]); PCID is leaf 1 ECX[17]. */
	bool umip, fsgsbase, smep, smap, pku, cet, pcid;
	/* 0x80000001 */
	bool svm; /* ECX[2] */
	/* 0x40000010 EAX, when we run under a hypervisor that offers the
	 * "timing information" leaf (VMware, KVM with it enabled): the TSC
	 * rate in kHz, the last resort of the TSC calibration. */
	u32 hv_tsc_khz;
	bool nx; /* EDX[20] */
	bool page1g; /* EDX[26] */
	bool rdtscp; /* EDX[27]: RDTSCP and the TSC_AUX MSR */
	u32 phys_addr_bits; /* 0x80000008 EAX[7:0] */

	/* SVM, 0x8000000A */
	u32 svm_nasid; /* EBX */
	bool npt, lbrv, nrips, tsc_rate, vmcb_clean, flush_by_asid,
		decode_assists, pause_filter, pause_filter_threshold, avic,
		vgif, v_spec_ctrl;

	/* Speculation control */
	bool ibrs, stibp, ssbd, ibrs_always_on, ibrs_preferred, auto_ibrs;
	bool ibpb; /* PRED_CMD (0x49) bit 0 */

	/* SEV-SNP, 0x8000001F / 0x80000025 */
	bool sev, snp, vmpl, segmented_rmp;
	u32 cbit_pos;
	/* ECX: how many encrypted guests at once, i.e. ASIDs 1..sev_asids are
	 * the SEV range (EDX, the lowest plain-SEV one, splits it with
	 * SEV-ES/SNP); an ordinary guest takes an ASID above it, as KVM's
	 * min_asid = max_sev_asid + 1 (APM vol 2 15.34; hv/vmcb/asid.c). */
	u32 sev_asids;
	bool rmpopt;

	/* Topology, 0x8000001E EBX[15:8] + 1 (1 without TopologyExtensions,
	 * 0x80000001 ECX[22]); used for the per-core RMPOPT_BASE (hv/snp/rmpopt.c). */
	u32 threads_per_core;

	/* With leaf 1 ECX[31] (hypervisor): leaf 0x40000000 EBX:ECX:EDX, the
	 * hypervisor's signature ("KVMKVMKVM\0\0\0", "TCGTCGTCGTCG", ...).
	 * Last in the struct: the fields above keep their short offsets. */
	char hv_sig[13];
	/* hv_sig is QEMU's TCG emulator ("TCGTCGTCGTCG": target/i386/cpu.c,
	 * property tcg-cpuid, on by default): a CPU that never speculates.
	 * Not the hypervisor bit alone (KVM sets it on hardware that does),
	 * nor fw_cfg (QEMU with KVM has it too). */
	bool tcg;
};

extern struct features g_features;

/* The CR4 bits this CPU implements: VME..OSXMMEXCPT (bits 10:0, every
 * x86-64 CPU), then each later enable only where CPUID has its feature,
 * as KVM's __cr4_reserved_bits(). VMRUN fails a guest CR4 with any other
 * bit set (APM vol 2 15.5.1), and a MOV to CR4 raises #GP (SDM vol 3A
 * 2.5). */
static inline u64 features_cr4_valid(const struct features *f)
{
	return 0x7ffULL | (f->umip ? CR4_UMIP : 0) | (f->la57 ? CR4_LA57 : 0) |
	       (f->fsgsbase ? CR4_FSGSBASE : 0) | (f->pcid ? CR4_PCIDE : 0) |
	       (f->xsave ? CR4_OSXSAVE : 0) | (f->smep ? CR4_SMEP : 0) |
	       (f->smap ? CR4_SMAP : 0) | (f->pku ? CR4_PKE : 0) |
	       (f->cet ? CR4_CET : 0) | (f->pks ? CR4_PKS : 0);
}

/* Fill *f from CPUID on this CPU. Pure decoding: takes the cpuid() primitive,
 * so unit tests feed it fake leaves. */
void features_detect(struct features *f);
void features_log(const struct features *f);
const char *features_vendor_name(enum cpu_vendor v);

#endif
