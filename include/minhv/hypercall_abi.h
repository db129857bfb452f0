/* SPDX-License-Identifier: GPL-2.0-only */
/* include/minhv/hypercall_abi.h - the VMMCALL ABI between minhv and its guests.
 * Shared by hv/ and guest/; docs/HYPERCALLS.md is the prose version.
 * Number in RAX; arguments in RDI, RSI, RDX, R10, R8; result in RAX
 * (>= 0 success, negative = -HC_E*). Pointers are guest-physical addresses
 * (minhv's guests identity-map their memory, so these are also their VAs). */
#ifndef MINHV_INCLUDE_MINHV_HYPERCALL_ABI_H
#define MINHV_INCLUDE_MINHV_HYPERCALL_ABI_H

/* Hypervisor CPUID leaves (0x40000000: max leaf, signature "minhvminhv\0\0"). */
#define HV_CPUID_BASE 0x40000000u
#define HV_CPUID_FEATURES 0x40000001u /* EAX = ABI version, EBX = vCPU id */
#define HV_ABI_VERSION 1

enum hc_number {
	HC_CONSOLE_WRITE = 1, /* (gpa buf, u64 len) -> bytes written */
	HC_REPORT =
		2, /* (gpa name, u64 result HC_RESULT_*, gpa diag, u64 diag_len) */
	HC_VCPU_START = 3, /* (u64 vcpu, gpa rip, gpa rsp, u64 arg in rdi) */
	HC_VCPU_OFFLINE = 4, /* (u64 vcpu) caller may name itself */
	HC_VCPU_ONLINE = 5, /* (u64 vcpu) */
	HC_GET_COUNTERS = 6, /* (gpa struct hc_counters, u64 size) -> size */
	HC_EXIT = 7, /* (u64 status) ends the guest; does not return */
	HC_VCPU_INFO = 8, /* () -> this vCPU id | (nr vCPUs << 32) */
	HC_TEST_PLAN = 9, /* (u64 n) the guest will send n HC_REPORTs -> 0 */
	HC_NR
};

/* Error codes (returned negated). Values follow Linux errno. */
#define HC_EPERM 1
#define HC_ENOENT 2
#define HC_E2BIG 7
#define HC_EFAULT 14
#define HC_EBUSY 16
#define HC_EINVAL 22
#define HC_ENOSYS 38

enum hc_result { HC_RESULT_OK = 0, HC_RESULT_FAIL = 1, HC_RESULT_SKIP = 2 };

#define HC_MAX_CONSOLE_LEN 4096
#define HC_MAX_NAME_LEN 64
#define HC_MAX_DIAG_LEN 256

/* Counters of this guest's exits, as seen by the hypervisor. */
struct hc_counters {
	unsigned long long exits_total;
	unsigned long long cpuid, vmmcall, ioio, msr, hlt, pause, npf, intr,
		nmi, shutdown, svm_insn, other;
};

#endif
