/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/snp.h - SEV-SNP in the hypervisor: detection, the RMP back end, SNP
 * guest page tracking and teardown followed by RMPOPT. The API the guest
 * engine and hv_main use. */
#ifndef MINHV_HV_SNP_SNP_H
#define MINHV_HV_SNP_SNP_H

#include "hv/snp/rmpopt.h"

struct snp_info {
	bool cpu_snp; /* CPUID 0x8000001F:EAX[4] */
	bool snp_en; /* SYSCFG[24] */
	bool segmented_rmp; /* CPUID 0x8000001F:EAX[23] */
	bool rmpopt; /* CPUID 0x80000025:EDX[0] */
	bool segmented_en; /* RMP_CFG[0]: segmented RMP in use */
	bool rmpopt_usable; /* rmpopt, SNP_EN and segmented_en */
	u64 rmp_base, rmp_end; /* MSRs 0xC0010132/3, when SNP_EN */
	bool ready; /* snp_init() succeeded */
};

extern struct snp_info g_snp;

/* Once, on the boot CPU, after SMP and MTRR set-up (APM 15.36: MTRRs and
 * SYSCFG are locked once SNP is enabled). Detects and logs SNP, picks the
 * RMP back end, programs RMPOPT_BASE on every core and runs the first
 * RMPOPT pass over RAM up to ram_top. Returns 0, or -ENOMEM. */
int snp_init(enum rmpopt_mode mode, u64 ram_top);

/* Flags for snp_guest_assign(). */
#define SNP_MEM_NOFREE 1 /* not pool memory: never page_free() it */

/* Assign [base, base + size) to asid in the RMP (2 MiB entries where base
 * and gpa are 2 MiB aligned, 4 KiB elsewhere) and track it. Whatever the
 * result, the range now belongs to asid's tracking and
 * snp_guest_teardown(asid) gives every page that is not leaked back to the
 * pool. Returns 0, -EINVAL (bad arguments), -ENOMEM (the host mapping could
 * not be split), -ENOSPC (tracking full) or -EIO (RMPUPDATE failed). */
int snp_guest_assign(u32 asid, hpa_t base, gpa_t gpa, u64 size, unsigned flags);
/* Give part of a guest back: PSMASH first where a 2 MiB entry is only
 * partly inside the range. Returns the pages leaked, -EINVAL (bad
 * arguments) or -EIO (PSMASH failed or no room to track its pages). */
int snp_guest_reclaim(u32 asid, hpa_t base, u64 size);
/* Tear down asid: write back caches, DECOMMISSION (a placeholder), reclaim
 * every page, free to the pool, queue its 1 GiB regions for RMPOPT.
 * Returns the pages leaked (never reused), or -ENOENT for an unknown asid. */
int snp_guest_teardown(u32 asid);
/* Run the RMPOPT pass over every region queued by teardowns since the last
 * flush (several teardowns, one pass). Returns the regions passed. */
u32 snp_rmpopt_flush(void);

u64 snp_guest_pages(u32 asid); /* 4 KiB pages tracked for asid */
u64 snp_leaked_pages(void); /* reclaim failures since boot */

/* host_map.c: the host's mapping of spa must be 4 KiB pages before spa
 * is assigned as a 4 KiB page. fn splits a large mapping and returns the
 * page-table pages it took from the pool (0 when already split), or
 * -ENOMEM; snp_guest_assign() calls it for every 4 KiB entry first and
 * refuses when no hook is registered. 0 or -ENOMEM. */
void snp_host_map_hook(int (*fn)(hpa_t spa));
int snp_host_map_4k(hpa_t spa);
/* Page-table pages the splits took (they stay: no merge back). */
u64 snp_host_map_pages(void);

/* Internal: guest.c set-up, called by snp_init(). */
int snp_guest_init(u64 max_pages);
/* WBNOINVD on every CPU (APM vol 3, WBNOINVD). */
void snp_writeback_caches(void);

#endif
