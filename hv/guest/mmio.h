/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/guest/mmio.h - MMIO emulation: fetch and decode the instruction that
 * hit a device page, perform the access through the device's callbacks
 * (hv/emul/mmio.h), write the destination register and step over the
 * instruction. */
#ifndef MINHV_HV_GUEST_MMIO_H
#define MINHV_HV_GUEST_MMIO_H

#include "arch/types.h"
#include "hv/emul/decode.h"
#include "hv/emul/mmio.h"

struct vcpu;

/* The instruction bytes seen, for the caller to print when decoding
 * failed. */
struct mmio_bytes {
	u8 n;
	u8 b[INSN_MAX_LEN];
};

/* Emulate the access at gpa (EXITINFO2 of the NPF) that falls in r. The
 * bytes come from the VMCB's decode assists when the CPU filled them
 * (VMCB 0xD0/0xD1, APM 15.33.5), otherwise from guest memory at
 * CS.base + RIP (64-, 32- or 16-bit code, real mode included). 0 when
 * done (RIP advanced); -EINVAL when the instruction is not decodable
 * (bytes in *seen, which may be NULL) or the access does not fit in r;
 * -EFAULT or
 * -ERANGE when the bytes could not be fetched; or the device's error. */
int mmio_emulate(struct vcpu *v, gpa_t gpa, const struct mmio_region *r,
		 struct mmio_bytes *seen);

/* Fetch and decode the instruction at the guest's CS:RIP, as
 * mmio_emulate() does (bytes in *b), without performing it. 0 and *in, or
 * mmio_emulate()'s errors. */
int emul_decode_at_rip(struct vcpu *v, struct mmio_bytes *b, struct insn *in);

#endif
