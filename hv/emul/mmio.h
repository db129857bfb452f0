/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/emul/mmio.h - MMIO emulation: fetch and decode the instruction that
 * hit a device page, perform the access through the device's callbacks,
 * write the destination register and step over the instruction. */
#ifndef MINHV_HV_EMUL_MMIO_H
#define MINHV_HV_EMUL_MMIO_H

#include "arch/types.h"
#include "hv/emul/decode.h"

struct vcpu;

/* A device's register accessors: off is from the region's base, size is
 * 1, 2, 4 or 8. 0, or a negative errno (the access is not emulated and
 * the guest register and RIP are left alone). */
struct mmio_ops {
	int (*read)(void *dev, u64 off, unsigned size, u64 *val);
	int (*write)(void *dev, u64 off, unsigned size, u64 val);
};

/* Guest-physical [base, base + size) handled by ops on dev. */
struct mmio_region {
	gpa_t base;
	u64 size;
	const struct mmio_ops *ops;
	void *dev;
};

/* The instruction bytes seen, for the caller to print when decoding
 * failed. */
struct mmio_bytes {
	u8 n;
	u8 b[INSN_MAX_LEN];
};

/* Emulate the access at gpa (EXITINFO2 of the NPF) that falls in r. The
 * bytes come from the VMCB's decode assists when the CPU filled them
 * (VMCB 0xD0/0xD1, APM 15.33.5), otherwise from guest memory at
 * CS.base + RIP. 0 when done (RIP advanced); -EINVAL when the instruction
 * is not decodable (bytes in *seen, which may be NULL), not in 32-bit
 * protected or 64-bit mode, or the access does not fit in r; -EFAULT or
 * -ERANGE when the bytes could not be fetched; or the device's error. */
int mmio_emulate(struct vcpu *v, gpa_t gpa, const struct mmio_region *r,
		 struct mmio_bytes *seen);

/* Fetch and decode the instruction at the guest's CS:RIP, as
 * mmio_emulate() does (bytes in *b), without performing it. 0 and *in, or
 * mmio_emulate()'s errors. */
int emul_decode_at_rip(struct vcpu *v, struct mmio_bytes *b, struct insn *in);

/* regs.c: a guest GPR by x86 number (0 RAX .. 15 R15): RAX and RSP live
 * in the VMCB, the rest in the vCPU's saved GPRs. */
u64 *vcpu_gpr(struct vcpu *v, unsigned reg);

#endif
