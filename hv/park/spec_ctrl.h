/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/park/spec_ctrl.h - the hypervisor's speculation-control policy: decided once
 * at boot from g_features, applied on every CPU, and kept apart from a
 * guest's SPEC_CTRL across VMRUN. Bits: AMD APM vol 2, "Indirect Branch
 * Control Extension"; Intel SDM vol 4 (IA32_SPEC_CTRL 0x48). */
#ifndef MINHV_HV_PARK_SPEC_CTRL_H
#define MINHV_HV_PARK_SPEC_CTRL_H

#include "arch/svm.h"
#include "arch/types.h"
#include "hv/features.h"
#include "hv/options/options.h"

/* How host (hypervisor) code is protected from poisoned indirect branches. */
enum spec_host_mode {
	SPEC_HOST_NONE, /* IBRS not enumerated: nothing SPEC_CTRL can do */
	SPEC_HOST_AUTO_IBRS, /* EFER.AUTOIBRS: hardware IBRS in CPL0 */
	SPEC_HOST_KERNEL_IBRS, /* SPEC_CTRL.IBRS set while host code runs */
};

/* How a guest's SPEC_CTRL is kept apart from the host's across VMRUN. */
enum spec_guest_mode {
	SPEC_GUEST_NONE, /* no SPEC_CTRL MSR: nothing to switch */
	SPEC_GUEST_V_SPEC_CTRL, /* hardware swaps it (VMCB save area 0x2E0) */
	SPEC_GUEST_SWAP, /* software: the VMRUN stub (SVM_HOST_SPEC_SWAP) */
};

struct spec_policy {
	/* What CPUID enumerates (copied from struct features). */
	bool ibrs, stibp, ssbd, auto_ibrs, ibrs_always_on, ibrs_preferred;
	bool has_msr; /* SPEC_CTRL exists: any of IBRS, STIBP, SSBD */
	bool snp_enabled; /* input: SNP is (or will be) enabled on this host */
	enum spec_host_mode host;
	const char *host_why; /* one line: why this host mode */
	u64 base; /* SPEC_CTRL while host code runs */
	/* Parking: write park_val before waiting, base again on wake. */
	bool park_lowers;
	u64 park_val; /* base with IBRS and STIBP cleared, SSBD kept */
	const char *park_why; /* one line: why parking does or does not write */
	enum spec_guest_mode guest;
	/* 32 CALLs into the return stack buffer after every #VMEXIT
	 * (SVM_HOST_RSB_FILL), Linux's X86_FEATURE_RSB_VMEXIT: unless
	 * AutoIBRS protects host mode, or the CPU is QEMU's TCG emulator
	 * (nothing speculates, so no guest-planted entry to overwrite);
	 * rsb_fill=on|off forces it. */
	bool rsb_fill;
	const char *rsb_why; /* one line: why the fill runs or not */
};

extern struct spec_policy g_spec_policy;

/* Pure: the policy for these features and the rsb_fill= option. No MSR is
 * touched. */
struct spec_policy spec_policy_decide(const struct features *f,
				      bool snp_enabled, enum tristate rsb_fill);
/* Pure: SPEC_CTRL while parked for this base: IBRS and STIBP cleared,
 * everything else (SSBD) kept. */
u64 spec_park_value(u64 base);
/* Log the policy (one line per decision). */
void spec_policy_log(const struct spec_policy *p);
const char *spec_host_mode_name(enum spec_host_mode m);
const char *spec_guest_mode_name(enum spec_guest_mode m);

/* Boot CPU, once, before any other CPU runs host code: decide from
 * g_features (and rsb_fill=) into g_spec_policy and log it. */
void spec_ctrl_boot(bool snp_enabled, enum tristate rsb_fill);
/* Every CPU (boot CPU included), early in its bring-up: EFER.AUTOIBRS or
 * the base SPEC_CTRL value, and this_cpu()->spec_ctrl_base. */
void spec_ctrl_cpu_init(void);

/* This CPU's part of what the VMRUN stub does (arch/svm.h), when a vCPU
 * starts on it: its base SPEC_CTRL, SVM_HOST_SPEC_SWAP with
 * SPEC_GUEST_SWAP (the stub writes the guest's value under GIF=0 and the
 * base back before STGI, each only when they differ), SVM_HOST_RSB_FILL
 * when the policy decided the fill (rsb_fill). */
void spec_ctrl_svm_host(struct svm_host *h);
/* A vCPU of guest `guest` (its serial) starts on this CPU: IBPB (PRED_CMD,
 * when enumerated) if the last one it ran belonged to another guest, so
 * one guest's branch training cannot steer the next's, as KVM's
 * svm_vcpu_load() when the VMCB changes. The first guest on a CPU gets
 * one too (minhv's own boot code trained the predictors). */
void spec_ctrl_guest_load(u64 guest);

#endif
