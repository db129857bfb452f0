// SPDX-License-Identifier: GPL-2.0-only
/* hv/time/tsc_cal.c - the TSC rate from reference clocks, the way Linux's
 * pit_hpet_ptimer_calibrate_cpu() and tsc_read_refs() go about it: every
 * reference read is bracketed by two TSC reads, and only tight brackets
 * count, so time lost to a descheduled vCPU or an SMI between the reads
 * is seen and the window thrown away instead of being counted as TSC
 * cycles. Several windows per reference, the median of those that agree,
 * the references checked against each other, and one long window to
 * confirm. Every wait is bounded in TSC cycles. */
#include "hv/time/tsc_cal.h"
#include "arch/cpu.h"
#include "arch/errno.h"
#include "lib/string.h"

const struct tsc_cal_cfg tsc_cal_default = {
	.window_us = 10000,
	.want = 3,
	.tries = 6,
	.long_us = 50000,
	.long_tries = 3,
	.max_err_ppm = 2000,
	.spread_ppm = 5000,
	.agree_ppm = 10000,
};

#define SAMPLE_TRIES 8
#define COST_READS 8

struct sample {
	u64 tsc; /* middle of the bracket */
	u64 width; /* TSC cycles between the two reads */
	u32 val;
};

/* The reference read between two TSC reads: the tightest of up to
 * SAMPLE_TRIES, stopping at the first within max_width. */
static void sample(const struct refclock *r, u64 max_width, struct sample *s)
{
	s->width = ~0ULL;
	for (u32 i = 0; i < SAMPLE_TRIES; i++) {
		u64 t1 = rdtsc();
		u32 v = r->read(r);
		u64 t2 = rdtsc();

		if (t2 - t1 < s->width) {
			s->tsc = t1 + (t2 - t1) / 2;
			s->width = t2 - t1;
			s->val = v;
		}
		if (s->width <= max_width)
			return;
	}
}

/* What one read costs when nothing interrupts it: the narrowest of a
 * few brackets. */
static u64 read_cost(const struct refclock *r)
{
	u64 best = ~0ULL;

	for (u32 i = 0; i < COST_READS; i++) {
		u64 t1 = rdtsc();
		u64 t2;

		(void)r->read(r);
		t2 = rdtsc();
		if (t2 - t1 < best)
			best = t2 - t1;
	}
	return best;
}

int tsc_cal_window(const struct refclock *r, u32 us, u32 max_err_ppm, u64 *khz)
{
	u64 ticks = r->hz * us / 1000000, maxw = 2 * read_cost(r) + 1;
	u64 elapsed = 0, t, t_prev, t_change, dtsc, err;
	struct sample s0, s1;
	u32 prev;

	if (!ticks)
		return -EAGAIN;
	sample(r, maxw, &s0);
	prev = s0.val;
	t_prev = t_change = s0.tsc;
	for (;;) {
		u32 v = r->read(r);
		u64 d;

		t = rdtsc();
		d = refclock_delta(r, prev, v);
		if (d) {
			/* A step of a quarter turn, or a gap between two reads
			 * of half a turn at the rate seen so far: the counter
			 * may have wrapped unseen. */
			if (d > r->mask / 4 ||
			    (elapsed &&
			     (t - t_prev) * elapsed >
				     (u64)(r->mask / 2) * (t_prev - s0.tsc)))
				return -EAGAIN;
			elapsed += d;
			prev = v;
			t_change = t;
			if (elapsed >= ticks)
				break;
		} else if (t - t_change > TSC_CAL_DEAD_CYCLES) {
			return -ETIMEDOUT;
		}
		if (t - s0.tsc > TSC_CAL_MAX_WAIT_CYCLES)
			return -ETIMEDOUT;
		t_prev = t;
	}
	sample(r, maxw, &s1);
	elapsed += refclock_delta(r, prev, s1.val);
	dtsc = s1.tsc - s0.tsc;
	if (!dtsc || dtsc >= 1ULL << 33 || r->hz >= 1ULL << 30)
		return -EAGAIN; /* dtsc * hz must fit in 64 bits */
	/* Half of each bracket, plus one count at each end. */
	err = (s0.width + s1.width) / 2 + 2 * dtsc / elapsed;
	if (err * 1000000 > (u64)max_err_ppm * dtsc)
		return -EAGAIN;
	*khz = dtsc * r->hz / elapsed / 1000;
	return 0;
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

/* Short windows against one reference: the median of the good ones that
 * agree with it; a reference whose windows scatter is not used. */
static void measure(const struct refclock *r, const struct tsc_cal_cfg *c,
		    struct tsc_cal_ref *o)
{
	u64 v[TSC_CAL_MAX_WINDOWS], kept[TSC_CAL_MAX_WINDOWS], med;
	u32 nkept = 0;

	o->name = r->name;
	while (o->tried < c->tries && o->tried < TSC_CAL_MAX_WINDOWS &&
	       o->good < c->want) {
		int rc = tsc_cal_window(r, c->window_us, c->max_err_ppm,
					&v[o->good]);

		o->tried++;
		if (rc == -ETIMEDOUT) {
			o->state = o->good ? REF_NOISY : REF_DEAD;
			return;
		}
		if (!rc)
			o->good++;
	}
	if (o->good < 2) {
		o->state = REF_NOISY;
		return;
	}
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

/* The references that worked must agree: three or more give a median
 * (an odd one out is marked); of two that disagree the first wins. */
static u64 combine(struct tsc_cal_result *res, const struct tsc_cal_cfg *c)
{
	u64 v[TSC_CAL_MAX_REFS], m;
	u32 n = 0, first = res->nrefs;

	for (u32 i = 0; i < res->nrefs; i++) {
		if (res->refs[i].state != REF_USED)
			continue;
		if (first == res->nrefs)
			first = i;
		v[n++] = res->refs[i].khz;
	}
	if (!n)
		return 0;
	if (n == 1)
		return v[0];
	if (n == 2) {
		if (abs_ppm(tsc_cal_dev_ppm(v[1], v[0])) <= c->agree_ppm)
			return (v[0] + v[1]) / 2;
		m = res->refs[first].khz;
	} else {
		m = tsc_cal_median(v, n, NULL);
	}
	for (u32 i = 0; i < res->nrefs; i++)
		if (res->refs[i].state == REF_USED &&
		    abs_ppm(tsc_cal_dev_ppm(res->refs[i].khz, m)) >
			    c->agree_ppm)
			res->refs[i].state = REF_DISAGREES;
	return m;
}

int tsc_cal_run(const struct refclock *refs, u32 n, const struct tsc_cal_cfg *c,
		struct tsc_cal_result *res)
{
	const struct refclock *best = NULL;

	memset(res, 0, sizeof(*res));
	res->nrefs = n < TSC_CAL_MAX_REFS ? n : TSC_CAL_MAX_REFS;
	for (u32 i = 0; i < res->nrefs; i++)
		measure(&refs[i], c, &res->refs[i]);
	res->consensus_khz = combine(res, c);
	if (!res->consensus_khz)
		return -ENODEV;
	for (u32 i = 0; i < res->nrefs && !best; i++)
		if (res->refs[i].state == REF_USED)
			best = &refs[i];
	res->long_ref = best->name;
	for (u32 i = 0; i < c->long_tries && !res->confirmed; i++) {
		if (tsc_cal_window(best, c->long_us, c->max_err_ppm,
				   &res->long_khz))
			continue;
		res->long_dev_ppm =
			tsc_cal_dev_ppm(res->long_khz, res->consensus_khz);
		res->confirmed = abs_ppm(res->long_dev_ppm) <= c->agree_ppm;
	}
	res->khz = res->confirmed ? res->long_khz : res->consensus_khz;
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
	};

	return s < ARRAY_SIZE(names) ? names[s] : "?";
}
