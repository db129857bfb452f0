/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/rmp.h - SEV-SNP RMP instructions (RMPUPDATE, PSMASH, RMPOPT) and
 * WBNOINVD: APM vol 3 (RMPUPDATE, PSMASH, WBNOINVD), AMD pub. 69201 (RMPOPT).
 * Real versions are raw bytes in arch/rmp.asm; unit tests link a double. */
#ifndef MINHV_ARCH_RMP_H
#define MINHV_ARCH_RMP_H

#include "arch/types.h"

/* The 16-byte RMPUPDATE operand that RCX points to (APM vol 3, RMPUPDATE). */
struct rmp_state {
	u64 gpa; /* 0x00: guest-physical address the page is mapped at */
	u8 assigned; /* 0x08: bit 0: owned by a guest (ASID) */
	u8 pagesize; /* 0x09: bit 0: 0 = 4 KiB, 1 = 2 MiB */
	u8 immutable; /* 0x0a: bit 0: firmware page */
	u8 rsvd; /* 0x0b */
	u32 asid; /* 0x0c: 0 together with assigned 0 = hypervisor-owned */
};
_Static_assert(sizeof(struct rmp_state) == 16, "RMPUPDATE operand is 16 bytes");
_Static_assert(__builtin_offsetof(struct rmp_state, asid) == 0x0c, "asid");

#define RMP_PG_4K 0
#define RMP_PG_2M 1
#define RMP_2M_PAGES 512

/* Return codes in EAX (APM vol 3, RMPUPDATE / PSMASH "Return codes"). */
#define RMP_OK 0
#define RMP_FAIL_INPUT 1
#define RMP_FAIL_PERMISSION 2
#define RMP_FAIL_INUSE 3 /* PSMASH: another CPU holds the entry */
#define RMP_FAIL_OVERLAP 4 /* RMPUPDATE: 4K/2M overlap; Linux retries */

/* RMPOPT function in RCX (pub. 69201). */
#define RMPOPT_VERIFY 0 /* scan the 1 GiB region, set this core's bit if free */
#define RMPOPT_REPORT 1 /* only report this core's bit */

/* RMPOPT_BASE (MSR 0xC0010139): bit 0 enable, bits 51:30 base. One MSR per
 * core, covering 2 TiB (2048 regions of 1 GiB) from the base. */
#define RMPOPT_BASE_EN 1ULL
#define RMPOPT_REGIONS 2048ULL
#define RMPOPT_COVERAGE (RMPOPT_REGIONS * SZ_1G)

/* F2 0F 01 FE: RAX = system-physical address, RCX -> state (identity
 * mapped). Returns EAX. */
u32 rmpupdate_insn(hpa_t spa, const struct rmp_state *st);
/* F3 0F 01 FF: RAX = 2 MiB-aligned address. Returns EAX. */
u32 psmash_insn(hpa_t spa);
/* F2 0F 01 FC: RAX = 1 GiB-aligned address, RCX = function.
 * Returns RFLAGS.CF: true when the region is optimized on this core.
 * Only where CPUID 0x80000025:EDX[0] says so: elsewhere the bytes decode as
 * CLZERO with a prefix and would zero the cache line at RAX. */
bool rmpopt_insn(hpa_t region, u64 func);
/* F3 0F 09: write back all caches without invalidating (WBINVD on CPUs
 * without WBNOINVD, which ignore the F3 prefix; APM vol 3, WBNOINVD). */
void wbnoinvd(void);

#endif
