/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vmcb/exit_decode.h - pure decoding of #VMEXIT information: IOIO and MSR
 * EXITINFO1, NPF error bits, and the next RIP with or without NRIP. */
#ifndef MINHV_HV_VMCB_EXIT_DECODE_H
#define MINHV_HV_VMCB_EXIT_DECODE_H

#include "arch/types.h"
#include "hv/vmcb/vmcb.h"

/* Counter buckets, one per exit kind (struct vcpu, HC_GET_COUNTERS);
 * exit_kind_of() in hv/svm/exit.h maps a code to its bucket. */
enum exit_kind {
	EK_CPUID,
	EK_VMMCALL,
	EK_IOIO,
	EK_MSR,
	EK_HLT,
	EK_PAUSE,
	EK_NPF,
	EK_INTR,
	EK_NMI,
	EK_SHUTDOWN,
	EK_SVM_INSN,
	EK_OTHER,
	EK_NR
};

/* IOIO EXITINFO1 (APM vol 2, 15.10.2). */
struct ioio_info {
	u16 port;
	u8 size; /* 1, 2 or 4 bytes */
	bool in; /* IN/INS (TYPE=1) */
	bool str; /* INS/OUTS */
	bool rep;
	u8 addr_bits; /* 16/32/64, 0 when not reported (QEMU) */
	u8 seg; /* effective segment for string ops */
};
void exit_ioio_decode(u64 exitinfo1, struct ioio_info *io);

/* MSR exit: EXITINFO1 0 = RDMSR, 1 = WRMSR (15.11). */
static inline bool msr_exit_is_write(u64 exitinfo1)
{
	return exitinfo1 & 1;
}

/* NPF EXITINFO1 (15.25.6): #PF error code bits plus where it hit. */
struct npf_info {
	bool present, write, user, rsvd, fetch;
	bool final_gpa; /* bit 32: on the final guest-physical access */
	bool guest_walk; /* bit 33: on a guest page-table access */
};
void exit_npf_decode(u64 exitinfo1, struct npf_info *n);
/* "write to not-present page during a guest page-table walk", ... */
const char *exit_npf_describe(const struct npf_info *n, char *buf, size_t len);

/* Length of the intercepted instruction when NRIP is unavailable, or 0
 * when the exit is not an instruction that minhv steps over. Inline, as
 * exit_next_rip(): both are on the path of every exit that steps over an
 * instruction. */
static inline unsigned exit_insn_len_fallback(u64 code)
{
	switch (code) {
	case VMEXIT_CPUID: /* 0F A2 */
	case VMEXIT_PAUSE: /* F3 90 */
	case VMEXIT_MSR: /* 0F 32 / 0F 30 */
	case VMEXIT_INVD: /* 0F 08 */
	case VMEXIT_WBINVD: /* 0F 09; WBNOINVD (F3 0F 09) needs NRIP */
		return 2;
	case VMEXIT_VMMCALL: /* 0F 01 D9 */
	case VMEXIT_XSETBV: /* 0F 01 D1 */
		return 3;
	case VMEXIT_HLT: /* F4 */
		return 1;
	default:
		return 0;
	}
}

/* RIP of the instruction after the intercepted one: IOIO from EXITINFO2,
 * else NRIP (when has_nrip and the CPU wrote it), else the known length.
 * Returns false if it cannot be known. */
static inline bool exit_next_rip(const struct vmcb *v, bool has_nrip, u64 *next)
{
	const struct vmcb_control *c = &v->control;
	unsigned len;

	if (c->exit_code == VMEXIT_IOIO) {
		*next = c->exit_info2;
		return true;
	}
	/* A CPU that advertises NRIP but left 0 (a broken model) falls back. */
	if (has_nrip && c->next_rip) {
		*next = c->next_rip;
		return true;
	}
	len = exit_insn_len_fallback(c->exit_code);
	*next = v->save.rip + len;
	return len != 0;
}

/* VMEXIT_INVALID in either width (QEMU 10.0.2 writes 32 bits). */
static inline bool exit_is_invalid(u64 code)
{
	return code == VMEXIT_INVALID || code == VMEXIT_INVALID_32;
}

#endif
