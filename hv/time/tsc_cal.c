// SPDX-License-Identifier: GPL-2.0-only
/* hv/time/tsc_cal.c - the TSC rate from reference clocks, the way Linux's
 * pit_hpet_ptimer_calibrate_cpu() and tsc_read_refs() go about it: every
 * reference read is bracketed by two TSC reads, and only tight brackets
 * count, so time lost to a descheduled vCPU or an SMI between the reads
 * is seen and the window thrown away instead of being counted as TSC
 * cycles. Several windows per reference, the median of those that agree,
 * the references checked against each other, and one long window to
 * confirm. Under noise the windows get longer (a bracket of d cycles
 * costs d / window), within a budget of TSC cycles; every wait is bounded.
 * With no consensus in the budget, the best-supported estimate. */
#include "hv/time/tsc_cal.h"
#include "arch/cpu.h"
#include "arch/errno.h"
#include "lib/string.h"

const struct tsc_cal_cfg tsc_cal_default = {
	.window_us = 10000,
	.max_window_us = 80000,
	.want = 3,
	.tries = 6,
	.long_us = 50000,
	.long_tries = 3,
	.max_err_ppm = 2000,
	.spread_ppm = 5000,
	.agree_ppm = 10000,
	.budget_cycles = 1ULL << 32,
};

#define SAMPLE_TRIES 8
#define SAMPLE_TRIES_MAX 64
#define COST_READS 8
/* The slowest TSC the turn checks allow for (the wait bounds assume no
 * slower one either). */
#define TSC_MIN_HZ 500000000ULL
#define LONG_MAX_US 200000

struct sample {
	u64 tsc; /* middle of the bracket */
	u64 width; /* TSC cycles between the two reads */
	u32 val;
};

/* One window's outcome: the rate, and its error bound (~0: none). */
struct win {
	u64 khz;
	u32 err_ppm;
};

/* The reference read between two TSC reads: the tightest of up to
 * tries, stopping at the first within max_width, or once the TSC passes
 * deadline (a starved vCPU's reads can each take many milliseconds). */
static void sample(const struct refclock *r, u32 tries, u64 max_width,
		   u64 deadline, struct sample *s)
{
	s->width = ~0ULL;
	for (u32 i = 0; i < tries; i++) {
		u64 t1 = rdtsc();
		u32 v = r->read(r);
		u64 t2 = rdtsc();

		if (t2 - t1 < s->width) {
			s->tsc = t1 + (t2 - t1) / 2;
			s->width = t2 - t1;
			s->val = v;
		}
		if (s->width <= max_width || t2 > deadline)
			return;
	}
}

/* Reads per window end: more in later rounds, where reads are
 * interrupted more often. */
static u32 sample_tries(u32 round)
{
	return round < 3 ? SAMPLE_TRIES << round : SAMPLE_TRIES_MAX;
}

/* What one read costs when nothing interrupts it: the narrowest of a
 * few brackets (one, past deadline). */
static u64 read_cost(const struct refclock *r, u64 deadline)
{
	u64 best = ~0ULL;

	for (u32 i = 0; i < COST_READS; i++) {
		u64 t1 = rdtsc();
		u64 t2;

		(void)r->read(r);
		t2 = rdtsc();
		if (t2 - t1 < best)
			best = t2 - t1;
		if (t2 > deadline)
			break;
	}
	return best;
}

/* Whether the reference may have turned unseen between two reads gap TSC
 * cycles apart: half a turn at the rate seen so far (elapsed counts in
 * span cycles), or, before any, half a turn at the slowest TSC. */
static bool may_turn(const struct refclock *r, u64 gap, u64 elapsed, u64 span)
{
	if (elapsed && span)
		return gap * elapsed > (u64)(r->mask / 2) * span;
	return gap > ((u64)r->mask + 1) / 2 * TSC_MIN_HZ / r->hz;
}

/* One window (see tsc_cal_window()), sampled with up to tries reads per
 * end, waiting until the TSC passes deadline at most. */
static int window(const struct refclock *r, u32 us, u32 tries, u64 deadline,
		  u32 max_err_ppm, struct win *w)
{
	u64 ticks = r->hz * us / 1000000, maxw = 2 * read_cost(r, deadline) + 1;
	u64 elapsed = 0, still = 0, t, t_prev, dtsc, err;
	struct sample s0, s1;
	bool last = false;
	u32 prev, reads = 0;

	w->khz = 0;
	w->err_ppm = ~0U;
	if (!ticks || r->hz >= 1ULL << 30)
		return -EAGAIN;
	/* A starved vCPU's reads can each take many milliseconds: past
	 * the deadline already, the window cannot end in time. */
	if (rdtsc() > deadline)
		return -ETIMEDOUT;
	sample(r, tries, maxw, deadline, &s0);
	if (s0.tsc > deadline)
		return -ETIMEDOUT;
	prev = s0.val;
	t_prev = s0.tsc + s0.width / 2;
	for (;;) {
		u32 v = r->read(r);
		u64 d;

		t = rdtsc();
		d = refclock_delta(r, prev, v);
		if (d) {
			/* A step of a quarter turn, or a gap between two reads
			 * of half a turn: it may have turned unseen. */
			if (d > r->mask / 4 ||
			    may_turn(r, t - t_prev, elapsed, t_prev - s0.tsc))
				return -EAGAIN;
			elapsed += d;
			prev = v;
			still = 0;
			if (elapsed >= ticks)
				break;
		} else if (t - t_prev <= TSC_CAL_GAP_CYCLES) {
			/* Standing still counts only over short gaps: a read,
			 * then a vCPU descheduled before the TSC read, is not a
			 * clock that stopped. */
			still += t - t_prev;
			if (still > TSC_CAL_DEAD_CYCLES)
				return -ENODEV;
		}
		if (last)
			return -ETIMEDOUT;
		/* Past a bound, one more read: the one before may have been
		 * made long before the TSC read that saw the bound. */
		if (t - s0.tsc > TSC_CAL_MAX_WAIT_CYCLES || t > deadline ||
		    ++reads > TSC_CAL_MAX_READS)
			last = true;
		t_prev = t;
	}
	sample(r, tries, maxw, deadline, &s1);
	/* The vCPU may have been away between the last read and the end
	 * sample's: a turn lost there is not in the brackets. */
	if (may_turn(r, s1.tsc - t, elapsed, t - s0.tsc))
		return -EAGAIN;
	elapsed += refclock_delta(r, prev, s1.val);
	dtsc = s1.tsc - s0.tsc;
	if (!dtsc || dtsc >= 1ULL << 33)
		return -EAGAIN; /* dtsc * hz must fit in 64 bits */
	/* Half of each bracket, plus one count at each end. */
	err = (s0.width + s1.width) / 2 + 2 * dtsc / elapsed;
	w->khz = dtsc * r->hz / elapsed / 1000;
	w->err_ppm = err >= dtsc ? ~0U - 1 : (u32)(err * 1000000 / dtsc);
	return w->err_ppm > max_err_ppm ? -EAGAIN : 0;
}

int tsc_cal_window(const struct refclock *r, u32 us, u32 max_err_ppm, u64 *khz)
{
	struct win w;
	int rc = window(r, us, SAMPLE_TRIES, ~0ULL, max_err_ppm, &w);

	if (!rc)
		*khz = w.khz;
	return rc;
}

static void sort(u64 *v, u32 n)
{
	for (u32 i = 1; i < n; i++)
		for (u32 j = i; j && v[j - 1] > v[j]; j--) {
			u64 x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

u64 tsc_cal_median(u64 *v, u32 n, u32 *spread_ppm)
{
	u64 m;

	sort(v, n);
	m = n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	if (spread_ppm)
		*spread_ppm = m ? (u32)((v[n - 1] - v[0]) * 1000000 / m) : 0;
	return m;
}

s32 tsc_cal_dev_ppm(u64 a, u64 b)
{
	s64 d = (s64)a - (s64)b;

	return b ? (s32)(d * 1000000 / (s64)b) : 0;
}

static u32 abs_ppm(s32 p)
{
	return p < 0 ? (u32)-p : (u32)p;
}

/* A reference's good windows so far: the median of those that agree
 * with it; a reference whose windows scatter is not used (yet). */
static void evaluate(struct tsc_cal_ref *o, const struct tsc_cal_cfg *c)
{
	u64 v[TSC_CAL_MAX_WINDOWS], kept[TSC_CAL_MAX_WINDOWS], med;
	u32 nkept = 0;

	if (o->good < 2) {
		o->state = REF_NOISY;
		return;
	}
	memcpy(v, o->win, o->good * sizeof(v[0]));
	med = tsc_cal_median(v, o->good, NULL);
	for (u32 i = 0; i < o->good; i++)
		if (abs_ppm(tsc_cal_dev_ppm(v[i], med)) <= c->spread_ppm / 2)
			kept[nkept++] = v[i];
	if (nkept < 2 || 2 * nkept < o->good) {
		o->khz = tsc_cal_median(v, o->good, &o->spread_ppm);
		o->state = REF_SPREAD;
		return;
	}
	o->khz = tsc_cal_median(kept, nkept, &o->spread_ppm);
	o->state = REF_USED;
}

/* Nothing more to learn from it: used, dead, or out of room. */
static bool settled(const struct tsc_cal_ref *o)
{
	return o->state == REF_USED || o->state == REF_DEAD ||
	       o->good == TSC_CAL_MAX_WINDOWS;
}

/* One round of windows of us microseconds against one reference: until
 * it has want good ones that agree, tries have been made, or the TSC
 * passes deadline. A window that outran its wait is tried again; only
 * a reference shown standing still is dead. */
static void measure(const struct refclock *r, const struct tsc_cal_cfg *c,
		    u32 us, u32 tries, u32 stries, u64 deadline,
		    struct tsc_cal_ref *o)
{
	for (u32 k = 0; k < tries && !settled(o) && rdtsc() < deadline; k++) {
		struct win w;
		int rc = window(r, us, stries, deadline, c->max_err_ppm, &w);

		o->tried++;
		if (rc == -ENODEV) {
			/* It stood still: dead, even if it counted before (a
			 * clock that stops is not trusted; never pooled). */
			o->state = REF_DEAD;
			return;
		}
		if (rc == -ETIMEDOUT) {
			o->overran++;
			continue;
		}
		if (rc) {
			o->wide++;
			if (w.err_ppm != ~0U &&
			    (!o->loose_khz || w.err_ppm < o->loose_err_ppm)) {
				o->loose_khz = w.khz;
				o->loose_err_ppm = w.err_ppm;
			}
			continue;
		}
		o->win[o->good++] = w.khz;
		if (o->good >= c->want)
			evaluate(o, c);
	}
	if (o->tried && !settled(o))
		evaluate(o, c);
}

/* The references used must agree: three or more give a median (an odd
 * one out is marked when mark is set); of two that disagree the first
 * wins. Returns the consensus (0: none) and how many references agree
 * with it. */
static u64 combine(struct tsc_cal_result *res, const struct tsc_cal_cfg *c,
		   bool mark, u32 *nagree)
{
	u64 v[TSC_CAL_MAX_REFS], m;
	u32 n = 0, first = res->nrefs;

	*nagree = 0;
	for (u32 i = 0; i < res->nrefs; i++) {
		if (res->refs[i].state != REF_USED)
			continue;
		if (first == res->nrefs)
			first = i;
		v[n++] = res->refs[i].khz;
	}
	if (!n)
		return 0;
	if (n == 2 && abs_ppm(tsc_cal_dev_ppm(v[1], v[0])) <= c->agree_ppm) {
		*nagree = 2;
		return (v[0] + v[1]) / 2;
	}
	m = n <= 2 ? res->refs[first].khz : tsc_cal_median(v, n, NULL);
	for (u32 i = 0; i < res->nrefs; i++) {
		if (res->refs[i].state != REF_USED)
			continue;
		if (abs_ppm(tsc_cal_dev_ppm(res->refs[i].khz, m)) <=
		    c->agree_ppm)
			(*nagree)++;
		else if (mark)
			res->refs[i].state = REF_DISAGREES;
	}
	return m;
}

/* No consensus in the budget, but some reference counted: the largest
 * group of good windows (from any reference that counted) within
 * agree_ppm / 2 of one of them, its median; with no good window, the
 * tightest of those thrown away for their brackets. A measurement with
 * its spread or error bound stated, not a guess. */
static void fallback(struct tsc_cal_result *res, const struct tsc_cal_cfg *c)
{
	u64 v[TSC_CAL_MAX_REFS * TSC_CAL_MAX_WINDOWS], g[ARRAY_SIZE(v)];
	u8 from[ARRAY_SIZE(v)];
	u32 n = 0, k = 0, best = 0, most = 0;

	for (u32 i = 0; i < res->nrefs; i++) {
		const struct tsc_cal_ref *o = &res->refs[i];

		for (u32 j = 0; j < o->good && o->state != REF_DEAD; j++) {
			v[n] = o->win[j];
			from[n++] = (u8)i;
		}
	}
	for (u32 i = 0; i < n; i++) {
		u32 support = 0;

		for (u32 j = 0; j < n; j++)
			if (abs_ppm(tsc_cal_dev_ppm(v[j], v[i])) <=
			    c->agree_ppm / 2)
				support++;
		if (support > most) {
			most = support;
			best = i;
		}
	}
	if (n) {
		for (u32 j = 0; j < n; j++)
			if (abs_ppm(tsc_cal_dev_ppm(v[j], v[best])) <=
			    c->agree_ppm / 2) {
				g[k++] = v[j];
				res->fb_refs |= 1U << from[j];
			}
		res->khz = tsc_cal_median(g, k, &res->fb_spread_ppm);
		res->fb_windows = k;
		res->fb_total = n;
		res->fb_err_ppm = c->max_err_ppm;
		res->fallback = true;
		return;
	}
	for (u32 i = 0; i < res->nrefs; i++) {
		const struct tsc_cal_ref *o = &res->refs[i];

		if (o->state == REF_DEAD || !o->loose_khz)
			continue;
		if (!res->fallback || o->loose_err_ppm < res->fb_err_ppm) {
			res->khz = o->loose_khz;
			res->fb_err_ppm = o->loose_err_ppm;
			res->fb_refs = 1U << i;
			res->fallback = true;
		}
	}
}

/* Whether no reference has given anything yet, not even a loose window,
 * and one may still: every window so far outran its wait. */
static bool starved(const struct tsc_cal_result *res)
{
	bool alive = false;

	for (u32 i = 0; i < res->nrefs; i++) {
		const struct tsc_cal_ref *o = &res->refs[i];

		if (o->state == REF_DEAD)
			continue;
		if (o->good || o->loose_khz)
			return false;
		alive = true;
	}
	return alive;
}

int tsc_cal_run(const struct refclock *refs, u32 n, const struct tsc_cal_cfg *c,
		struct tsc_cal_result *res)
{
	u64 t0 = rdtsc(), short_end = t0 + c->budget_cycles / 4 * 3;
	u64 end = t0 + c->budget_cycles;
	const struct refclock *best = NULL;
	u32 us = c->window_us, nagree, shift, cap;

	memset(res, 0, sizeof(*res));
	res->nrefs = n < TSC_CAL_MAX_REFS ? n : TSC_CAL_MAX_REFS;
	for (u32 i = 0; i < res->nrefs; i++) {
		res->refs[i].name = refs[i].name;
		res->refs[i].state = REF_UNTRIED;
	}
	/* Rounds of ever longer windows, each reference that has not
	 * settled taking its turn, until two references agree, all have
	 * settled, or the short windows' part of the budget is spent. */
	for (u32 round = 0;; round++) {
		u32 tries = round < 8 ? c->tries >> round : 0;
		bool open = false;

		res->rounds = round + 1;
		res->short_max_us = us;
		for (u32 i = 0; i < res->nrefs; i++)
			if (!settled(&res->refs[i]))
				measure(&refs[i], c, us,
					tries > c->want ? tries : c->want,
					sample_tries(round), short_end,
					&res->refs[i]);
		(void)combine(res, c, false, &nagree);
		for (u32 i = 0; i < res->nrefs; i++)
			open |= !settled(&res->refs[i]);
		if (!open || nagree >= 2)
			break;
		if (rdtsc() >= short_end || us >= c->max_window_us) {
			/* A vCPU so starved that no window ended in the budget
			 * (a 288-vCPU QEMU on a loaded two-core host): one
			 * more budget, up to TSC_CAL_STARVED_BUDGETS, since
			 * a slow answer beats none; any window, even a loose
			 * one, ends this. */
			if (!starved(res) ||
			    res->extended >= TSC_CAL_STARVED_BUDGETS)
				break;
			res->extended++;
			short_end = rdtsc() + c->budget_cycles / 4 * 3;
			end = short_end + c->budget_cycles / 4;
		}
		us = 2 * us < c->max_window_us ? 2 * us : c->max_window_us;
	}
	res->consensus_khz = combine(res, c, true, &nagree);
	if (!res->consensus_khz) {
		fallback(res, c);
		res->cycles = rdtsc() - t0;
		return res->fallback ? 0 : -ENODEV;
	}
	for (u32 i = 0; i < res->nrefs && !best; i++)
		if (res->refs[i].state == REF_USED)
			best = &refs[i];
	res->long_ref = best->name;
	/* As much longer than the short windows as they had to be. */
	shift = res->rounds - 1 < 2 ? res->rounds - 1 : 2;
	cap = c->long_us > LONG_MAX_US ? c->long_us : LONG_MAX_US;
	res->long_us = c->long_us << shift < cap ? c->long_us << shift : cap;
	for (u32 i = 0; i < c->long_tries && !res->confirmed && rdtsc() < end;
	     i++) {
		struct win w;

		if (window(best, res->long_us, sample_tries(res->rounds - 1),
			   end, c->max_err_ppm, &w))
			continue;
		res->long_khz = w.khz;
		res->long_dev_ppm =
			tsc_cal_dev_ppm(res->long_khz, res->consensus_khz);
		res->confirmed = abs_ppm(res->long_dev_ppm) <= c->agree_ppm;
	}
	res->khz = res->confirmed ? res->long_khz : res->consensus_khz;
	res->cycles = rdtsc() - t0;
	return 0;
}

const char *tsc_ref_state_name(enum tsc_ref_state s)
{
	static const char *const names[] = {
		[REF_USED] = "used",
		[REF_DEAD] = "did not count",
		[REF_NOISY] = "too noisy",
		[REF_SPREAD] = "windows disagree",
		[REF_DISAGREES] = "disagrees",
		[REF_UNTRIED] = "not tried, no time left",
	};

	return s < ARRAY_SIZE(names) ? names[s] : "?";
}
