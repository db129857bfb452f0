/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/mtrr/mtrr.h - MTRRs replicated from the boot CPU to every CPU in one
 * lock-step rendezvous (Intel SDM vol 3A 11.11.8, AMD APM vol 2 7.6/7.7),
 * skipping both WBINVDs on self-snooping CPUs unless memory that may be
 * cached becomes UC. Sources: state.c (capture, read back, compare),
 * policy.c (flush rule), sync.c (the rendezvous), verify.c (its
 * read-only check when SNP locked them), range.c
 * (set a range's type), mtrr.c (init, option, SNP lock). */
#ifndef MINHV_HV_MTRR_MTRR_H
#define MINHV_HV_MTRR_MTRR_H

#include "arch/msr.h" /* the MTRR MSRs, their bits, MTRR_TYPE_* */
#include "arch/types.h"
#include "hv/features.h"
#include "hv/options/options.h" /* enum tristate */

#define MTRR_MAX_VAR 255 /* VCNT is 8 bits wide */
#define MTRR_NFIXED 11 /* 0x250, 0x258, 0x259, 0x268..0x26f */

struct mtrr_var {
	u64 base; /* PHYSBASEn: address | type */
	u64 mask; /* PHYSMASKn: mask | valid (bit 11) */
};

/* One CPU's complete MTRR state, as read or to be written. */
struct mtrr_state {
	u64 cap; /* MTRRcap 0xFE (read only; compared, never written) */
	u64 def_type; /* MTRRdefType 0x2FF */
	u32 vcnt; /* variable ranges in use: MTRRcap.VCNT */
	bool have_fixed; /* MTRRcap.FIX */
	/* AMD/Hygon: SYSCFG[19] MtrrFixDramModEn is part of the state. While
	 * it is 0 the RdMem/WrMem bits (4:3 of each fixed-range byte) read 0
	 * and writes to them are ignored (APM vol 2 7.9.1), so they are only
	 * carried and compared when it is 1. */
	bool have_syscfg;
	bool fix_dram_mod_en;
	u64 fixed[MTRR_NFIXED];
	struct mtrr_var var[MTRR_MAX_VAR];
};

/* Phases of the rendezvous, timed with RDTSC on every CPU. */
enum mtrr_phase {
	MTRR_PH_ENTRY, /* entry barrier: waiting for every CPU */
	MTRR_PH_DISABLE, /* CD=1, WBINVD, TLB flush, E=0 */
	MTRR_PH_WRITE, /* the MTRR (and SYSCFG) writes */
	MTRR_PH_ENABLE, /* E=1, WBINVD, TLB flush, CD=0, PGE */
	MTRR_PH_EXIT, /* exit barrier */
	MTRR_NPHASES
};

/* What one mtrr_sync_all() did. Aggregates only (no per-CPU arrays, so no
 * CPU limit): per-CPU detail goes to the console as it happens. */
struct mtrr_stats {
	u32 seq; /* rendezvous number, 1 = the first; 0 = never ran */
	int rc; /* mtrr_sync_all()'s return value */
	u32 expected; /* CPUs online when it started */
	u32 cpus; /* CPUs that ran the procedure */
	bool flushed; /* the two WBINVDs were executed */
	const char *why; /* the flush rule that applied, in words */
	u32 precheck_differ; /* CPUs whose MTRRs differed before, vs old */
	u32 precheck_unsafe; /* of those, CPUs whose own old types need the
			      * flush (something cacheable goes to UC) */
	u64 wbinvd_total;
	u32 wbinvd_cpu_min, wbinvd_cpu_max; /* per CPU */
	u64 phase_max[MTRR_NPHASES]; /* slowest CPU, TSC cycles */
	u64 phase_sum[MTRR_NPHASES]; /* sum over CPUs (avg = sum / cpus) */
	u64 total_cycles; /* the initiator's view of the whole rendezvous */
	u32 mismatch_cpus; /* CPUs whose read-back differs from the target */
	u32 mismatch_msrs; /* MSRs that differ, all CPUs together */
	u32 first_mismatch_cpu; /* lowest such CPU (valid if mismatch_cpus) */
	bool aborted; /* entry barrier timed out: nothing was written */
	bool verify_only; /* mtrr_verify_all(): compared, nothing written */
	bool exit_timeout; /* exit barrier timed out (a CPU hung mid-way) */
};

/* state.c */
/* Set (before mtrr_init()) only by the path that is going to enable SNP:
 * then SYSCFG.MtrrFixDramModEn is set on every CPU, as SNP firmware wants
 * (Linux mfd_enable() runs only from snp_rmptable_init()). Otherwise the
 * bit is left as the firmware set it, even on CPUs that offer SNP. */
extern bool g_mtrr_snp_enabling;
/* Read this CPU's MTRRs (on the boot CPU, after firmware). Uses g_features
 * for MTRRcap presence and vendor; with g_mtrr_snp_enabling on AMD it sets
 * SYSCFG.MtrrFixDramModEn first. */
void mtrr_capture(struct mtrr_state *s);
/* Read this CPU's MTRRs as they are, writing nothing (SYSCFG untouched). */
void mtrr_read(struct mtrr_state *s);
/* Write s to this CPU's MTRRs (E must already be 0; def_type last). */
void mtrr_write_ranges(const struct mtrr_state *s);
/* Compare this CPU's MTRRs with s. Returns the number of differing MSRs.
 * MTRR_CMP_REPORT: pr_err() names cpu and MSR for each difference.
 * MTRR_CMP_TYPES: only what decides memory types (not SYSCFG, not the
 * fixed ranges' RdMem/WrMem bits). */
#define MTRR_CMP_REPORT 1u
#define MTRR_CMP_TYPES 2u
u32 mtrr_compare(const struct mtrr_state *s, u32 cpu, unsigned flags);
const char *mtrr_type_name(u8 type);
bool mtrr_type_valid(u8 type);

/* policy.c */
/* Whether the two WBINVDs are needed to go from *old to *new. force:
 * TRI_ON always flushes; TRI_OFF never does (DANGEROUS: lines cached under
 * the old type survive in memory that became UC, and later writes may be
 * lost or reads stale - for measurements only); TRI_AUTO flushes unless
 * the CPU self-snoops (CPUID.1:EDX[27]) and no address can go from a
 * cacheable type (WC/WT/WP/WB) to UC. *why gets the rule, in words. */
bool mtrr_need_flush(const struct features *f, const struct mtrr_state *old,
		     const struct mtrr_state *new, enum tristate force,
		     const char **why);

/* sync.c */
/* Program *target on every online CPU at once through ipi_call_all(), read
 * back and compare on each. Fills *st (may be NULL) and the last stats.
 * Returns 0, -ETIMEDOUT (a CPU never reached the entry barrier: nothing
 * written), -EIO (some CPU differs after), -EPERM (locked for SNP). */
int mtrr_sync_all(const struct mtrr_state *target, struct mtrr_stats *st);
/* verify.c. With the MTRRs locked (SNP_EN, set by firmware): compare every online
 * CPU's MTRRs with *s, write nothing. Records stats like a rendezvous
 * (verify_only, no WBINVD). 0, or -EIO when some CPU differs. */
int mtrr_verify_all(const struct mtrr_state *s, struct mtrr_stats *st);

/* range.c */
/* Give [base, base + size) memory type `type` through one variable MTRR,
 * then re-run the rendezvous. size: a power of two >= 4 KiB; base aligned
 * to size; the range inside phys_addr_bits; type UC/WC/WT/WP/WB. An
 * identical range is reused (its type changed); a range overlapping a
 * different valid one is refused (-EBUSY: splitting is not supported,
 * and overlap rules would make the result depend on the other's type).
 * Returns 0 or -EINVAL, -ERANGE, -EBUSY, -ENOSPC, -EPERM, -ENODEV, or the
 * error of mtrr_sync_all(). Errors are also printed with pr_err(). */
int mtrr_set_range(u64 base, u64 size, u8 type);

/* mtrr.c */
/* Boot CPU, once, after every AP is online and before minhv enables SNP:
 * capture, replicate to every CPU, verify. Returns mtrr_sync_all()'s
 * result, or 0 when the CPU has no MTRRs (nothing to do). With SNP_EN
 * already set by firmware (a supported set-up) the MTRRs are read-only:
 * the boot CPU's are read and every CPU verified identical instead
 * (mtrr_verify_all()'s result). */
int mtrr_init(void);
/* The option mtrr_flush=on|off|auto (default auto). */
void mtrr_set_flush_option(enum tristate t);
enum tristate mtrr_flush_option(void);
/* The state every CPU was last programmed with; NULL before mtrr_init(). */
const struct mtrr_state *mtrr_current(void);
/* The last rendezvous' statistics (seq 0 if none ran), for the KTAP check. */
const struct mtrr_stats *mtrr_last_stats(void);
/* From now on every MTRR write is refused (-EPERM): SYSCFG.SNP_EN makes
 * the fixed MTRRs and SYSCFG read-only (APM vol 2 15.36). Call before
 * setting SNP_EN. */
void mtrr_lock_for_snp(void);
bool mtrr_locked_for_snp(void);

/* Internal, shared between the mtrr_*.c files. */
struct mtrr_state *mtrr_cur_state(void); /* NULL before mtrr_init() */
void mtrr_set_cur_state(const struct mtrr_state *s);
void mtrr_record_stats(const struct mtrr_stats *st);

#endif
