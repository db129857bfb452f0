/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/time/tsc_cal.h - measuring the TSC rate against reference clocks:
 * several short windows per reference, each bracketed so that a window
 * whose reads were interrupted (a descheduled vCPU, an SMI) is thrown
 * away; the references must agree; one long window confirms the answer.
 * Under noise the windows get longer, within one budget of TSC cycles
 * (a few more for a vCPU too starved to end any window). */
#ifndef MINHV_HV_TIME_TSC_CAL_H
#define MINHV_HV_TIME_TSC_CAL_H

#include "hv/time/refclock.h"

#define TSC_CAL_MAX_REFS 4
#define TSC_CAL_MAX_WINDOWS 16 /* good windows kept per reference */

struct tsc_cal_cfg {
	u32 window_us; /* the first short windows */
	u32 max_window_us; /* under noise they double up to this */
	u32 want; /* good short windows wanted per reference */
	u32 tries; /* short windows per reference in the first round; later
		    * (longer) rounds try half as many, at least want */
	u32 long_us; /* the confirming window, doubled (at most twice)
		      * when the short windows had to be longer */
	u32 long_tries;
	u32 max_err_ppm; /* a window's error bound, else it is thrown away */
	u32 spread_ppm; /* a reference's good windows agree within this */
	u32 agree_ppm; /* references, and the long window, agree within this */
	/* TSC cycles for the whole calibration at worst: the short windows
	 * stop at three quarters of it, the confirmation at all of it. */
	u64 budget_cycles;
};

/* The defaults minhv boots with (10 ms windows, 3 of up to 6 per
 * reference, up to 80 ms under noise, a 50 ms confirmation; 0.2 %,
 * 0.5 %, 1 %; 2^32 cycles, 1.8 s at 2.4 GHz). */
extern const struct tsc_cal_cfg tsc_cal_default;

enum tsc_ref_state {
	REF_USED, /* part of the answer */
	REF_DEAD, /* never counted */
	REF_NOISY, /* too few windows with tight brackets */
	REF_SPREAD, /* its own windows disagree */
	REF_DISAGREES, /* consistent, but not with the other references */
	REF_UNTRIED, /* the budget was spent before its turn */
};

struct tsc_cal_ref {
	const char *name;
	enum tsc_ref_state state;
	u32 good, tried; /* short windows */
	u32 wide; /* thrown away: brackets too wide, or a turn maybe lost */
	u32 overran; /* the wait outran its bound, the reference counting */
	u64 khz; /* median of the good windows */
	u32 spread_ppm; /* (max - min) / median of the good windows */
	u64 win[TSC_CAL_MAX_WINDOWS]; /* the good windows' rates */
	/* the tightest window thrown away for its brackets (0: none) */
	u64 loose_khz;
	u32 loose_err_ppm;
};

struct tsc_cal_result {
	u64 khz; /* the answer; 0 when no reference counted */
	u32 nrefs;
	struct tsc_cal_ref refs[TSC_CAL_MAX_REFS];
	u64 consensus_khz; /* from the short windows */
	u32 rounds; /* rounds of short windows */
	u32 short_max_us; /* the longest short windows tried */
	const char *long_ref; /* the confirming window's reference */
	u32 long_us;
	u64 long_khz; /* 0: no long window had tight brackets in time */
	s32 long_dev_ppm; /* long window against the consensus */
	bool confirmed; /* the long window agreed (then khz = long_khz) */
	/* No consensus within the budget: khz is the best-supported
	 * estimate. With good windows, the median of the largest group of
	 * them that agree within agree_ppm (fb_windows of fb_total, their
	 * spread fb_spread_ppm, from the references in the fb_refs bit mask);
	 * with none, the tightest window thrown away for its brackets
	 * (fb_windows 0, its error bound fb_err_ppm, its reference in
	 * fb_refs). */
	bool fallback;
	u32 fb_windows, fb_total, fb_spread_ppm, fb_err_ppm, fb_refs;
	u32 extended; /* budgets added because no window had ended */
	u64 cycles; /* TSC cycles the calibration took */
};

/* Calibrate against refs[0..n), best first (on disagreement the earlier
 * one wins). Every wait is bounded by TSC cycles, the whole run by
 * c->budget_cycles (by up to TSC_CAL_STARVED_BUDGETS more while no window
 * has ended at all). Returns 0 (res->fallback says whether the answer is a
 * consensus), or -ENODEV when no reference counted (res->khz = 0). */
int tsc_cal_run(const struct refclock *refs, u32 n, const struct tsc_cal_cfg *c,
		struct tsc_cal_result *res);
/* A reference that reads the same for this many TSC cycles is dead; only
 * gaps between reads shorter than TSC_CAL_GAP_CYCLES count towards it, so
 * a vCPU descheduled between two reads is never taken for a dead clock. */
#define TSC_CAL_DEAD_CYCLES (1ULL << 27)
/* Budgets added, at most, while no window from a counting reference has
 * ended at all (a starved vCPU): the whole run is then bounded by
 * (1 + TSC_CAL_STARVED_BUDGETS) budgets. */
#define TSC_CAL_STARVED_BUDGETS 7
#define TSC_CAL_GAP_CYCLES (TSC_CAL_DEAD_CYCLES / 16)
/* No window waits longer than this (about 0.2 s at 10 GHz, 4 s at 0.5),
 * nor reads the reference more often than TSC_CAL_MAX_READS. */
#define TSC_CAL_MAX_WAIT_CYCLES (1ULL << 31)
#define TSC_CAL_MAX_READS (1U << 24)

/* One window of us microseconds: 0 and *khz; -EAGAIN (brackets too
 * wide, or the reference may have turned unseen); -ETIMEDOUT (the wait
 * outran TSC_CAL_MAX_WAIT_CYCLES with the reference counting, or not
 * provably dead: a descheduled vCPU, try again); -ENODEV (the reference
 * did not count). Exposed for the unit tests. */
int tsc_cal_window(const struct refclock *r, u32 us, u32 max_err_ppm, u64 *khz);
/* Median of v[0..n) (n > 0; v is sorted in place) and (max - min) /
 * median in ppm. */
u64 tsc_cal_median(u64 *v, u32 n, u32 *spread_ppm);
/* |a - b| / b in ppm, signed. */
s32 tsc_cal_dev_ppm(u64 a, u64 b);
const char *tsc_ref_state_name(enum tsc_ref_state s);

#endif
