/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/time/tsc_cal.h - measuring the TSC rate against reference clocks:
 * several short windows per reference, each bracketed so that a window
 * whose reads were interrupted (a descheduled vCPU, an SMI) is thrown
 * away; the references must agree; one long window confirms the answer. */
#ifndef MINHV_HV_TIME_TSC_CAL_H
#define MINHV_HV_TIME_TSC_CAL_H

#include "hv/time/refclock.h"

#define TSC_CAL_MAX_REFS 4
#define TSC_CAL_MAX_WINDOWS 8

struct tsc_cal_cfg {
	u32 window_us; /* a short window */
	u32 want; /* good short windows wanted per reference */
	u32 tries; /* short windows tried per reference, at most */
	u32 long_us; /* the confirming window */
	u32 long_tries;
	u32 max_err_ppm; /* a window's error bound, else it is thrown away */
	u32 spread_ppm; /* a reference's good windows agree within this */
	u32 agree_ppm; /* references, and the long window, agree within this */
};

/* The defaults minhv boots with (10 ms windows, 3 of up to 6 per
 * reference, a 50 ms confirmation; 0.2 %, 0.5 %, 1 %). */
extern const struct tsc_cal_cfg tsc_cal_default;

enum tsc_ref_state {
	REF_USED, /* part of the answer */
	REF_DEAD, /* never counted */
	REF_NOISY, /* too few windows with tight brackets */
	REF_SPREAD, /* its own windows disagree */
	REF_DISAGREES, /* consistent, but not with the other references */
};

struct tsc_cal_ref {
	const char *name;
	enum tsc_ref_state state;
	u32 good, tried; /* short windows */
	u64 khz; /* median of the good windows */
	u32 spread_ppm; /* (max - min) / median of the good windows */
};

struct tsc_cal_result {
	u64 khz; /* the answer; 0 when no reference worked */
	u32 nrefs;
	struct tsc_cal_ref refs[TSC_CAL_MAX_REFS];
	u64 consensus_khz; /* from the short windows */
	const char *long_ref; /* the confirming window's reference */
	u64 long_khz;
	s32 long_dev_ppm; /* long window against the consensus */
	bool confirmed; /* the long window agreed (then khz = long_khz) */
};

/* Calibrate against refs[0..n), best first (on disagreement the earlier
 * one wins). Every wait is bounded by TSC cycles, so a reference that
 * never counts costs at most TSC_CAL_DEAD_CYCLES. Returns 0, or -ENODEV
 * when no reference gave a consistent answer (res->khz = 0). */
int tsc_cal_run(const struct refclock *refs, u32 n, const struct tsc_cal_cfg *c,
		struct tsc_cal_result *res);
/* A reference that has not moved for this many TSC cycles is dead. */
#define TSC_CAL_DEAD_CYCLES (1ULL << 27)
/* No window waits longer than this (about 0.2 s at 10 GHz, 4 s at 0.5). */
#define TSC_CAL_MAX_WAIT_CYCLES (1ULL << 31)

/* One window of us microseconds: 0 and *khz, -EAGAIN (brackets too wide,
 * or the reference may have wrapped unseen), -ETIMEDOUT (it did not
 * count). Exposed for the unit tests. */
int tsc_cal_window(const struct refclock *r, u32 us, u32 max_err_ppm, u64 *khz);
/* Median of v[0..n) (n > 0; v is sorted in place) and (max - min) /
 * median in ppm. */
u64 tsc_cal_median(u64 *v, u32 n, u32 *spread_ppm);
/* |a - b| / b in ppm, signed. */
s32 tsc_cal_dev_ppm(u64 a, u64 b);
const char *tsc_ref_state_name(enum tsc_ref_state s);

#endif
