// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_tsc_cal.c - the TSC calibration (hv/time/tsc_cal.c)
 * against simulated reference clocks: a simulated time advances with every
 * TSC and reference read, and the test decides when the "vCPU" is
 * descheduled (inside a bracket, or while waiting), which reference never
 * counts, or counts at the wrong rate. A window whose brackets show a
 * deschedule is thrown away, never counted; the references must agree;
 * every wait is bounded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/time/tsc_cal.h"
#include "tests/doubles/fake_cpu.h"

#define NS 1000000000ULL
#define TRUE_HZ 2445406000ULL /* the simulated TSC */
#define TRUE_KHZ (TRUE_HZ / 1000)

struct sim_ref {
	u64 hz;
	s64 skew_ppm; /* counts this much fast */
	bool dead; /* never counts */
};

static u64 now; /* simulated ns */
static u64 tsc_cost = 20, ref_cost = 1000; /* ns per read */
static u32 prev_rdtsc; /* TSC reads since the last reference read */
/* Deschedules: the first desched_n bracket reads (a reference read right
 * after two TSC reads, as sample() and read_cost() make them) from time
 * desched_at on each take desched_ns longer; a wait read (the loop
 * alternates one TSC read and one reference read) after wait_at takes
 * wait_ns longer, once. */
static u64 desched_at, desched_ns, wait_at, wait_ns;
static u32 desched_n;
/* A deschedule between a reference read and the TSC read after it (the
 * wait loop reads the reference first), once, after after_at; with
 * after_same only after a read that returned what the one before did.
 * gap_ns: once, after gap_at, between two TSC reads in a row (the wait
 * loop's last one and the end sample's first). */
static u64 after_at, after_ns, gap_at, gap_ns;
static bool after_same, after_pending;
static u32 last_val[4];
static u32 rng = 1; /* loaded-host noise: deschedule 1 in load_every reads */
static u32 load_every;
static u64 max_gap; /* the longest jump the simulation made */
/* A starved vCPU: until slow_until, every reference read takes slow_ns. */
static u64 slow_until, slow_ns;
static struct sim_ref sims[4];

static u64 rand_ns(void)
{
	rng = rng * 1103515245u + 12345u;
	return ((rng >> 8) % 20 + 1) * 1000000ULL; /* 1..20 ms */
}

static void loaded(void)
{
	if (load_every) {
		rng = rng * 1103515245u + 12345u;
		if ((rng >> 8) % load_every == 0) {
			u64 d = rand_ns();

			now += d;
			if (d > max_gap)
				max_gap = d;
		}
	}
}

static u64 sim_rdtsc(void)
{
	if (after_pending) {
		now += after_ns;
		after_ns = 0;
		after_pending = false;
	} else if (prev_rdtsc == 1 && gap_ns && now >= gap_at) {
		now += gap_ns;
		gap_ns = 0;
	}
	now += tsc_cost;
	loaded();
	prev_rdtsc++;
	return (u64)((unsigned __int128)now * TRUE_HZ / NS);
}

static u32 sim_read(const struct refclock *r)
{
	struct sim_ref *s = &sims[r->addr];
	unsigned __int128 t;
	u32 v;

	if (prev_rdtsc >= 2 && desched_n && now >= desched_at) {
		now += desched_ns; /* between the bracket's two TSC reads */
		desched_n--;
	} else if (prev_rdtsc == 1 && wait_ns && now >= wait_at) {
		now += wait_ns;
		wait_ns = 0;
	}
	prev_rdtsc = 0;
	now += now < slow_until ? slow_ns : ref_cost;
	loaded();
	if (s->dead) {
		v = r->down ? r->mask : 0;
	} else {
		t = (unsigned __int128)now * s->hz *
		    (u64)(1000000 + s->skew_ppm) /
		    ((unsigned __int128)NS * 1000000);
		v = (u32)(r->down ? (u64) - (u64)t : (u64)t) & r->mask;
	}
	if (after_ns && now >= after_at &&
	    (!after_same || v == last_val[r->addr]))
		after_pending = true;
	last_val[r->addr] = v;
	return v;
}

static struct refclock mk(u32 i, const char *name, u64 hz, u32 mask, bool down)
{
	sims[i] = (struct sim_ref){ .hz = hz };
	return (struct refclock){ .name = name,
				  .hz = hz,
				  .mask = mask,
				  .down = down,
				  .read = sim_read,
				  .addr = i };
}

static struct refclock refs[3];

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_rdtsc_hook = sim_rdtsc;
	now = 1000000; /* not at 0: every counter starts somewhere */
	prev_rdtsc = 0;
	desched_n = 0;
	desched_at = desched_ns = wait_at = wait_ns = 0;
	after_at = after_ns = gap_at = gap_ns = 0;
	after_same = after_pending = false;
	memset(last_val, 0, sizeof(last_val));
	tsc_cost = 20;
	ref_cost = 1000;
	load_every = 0;
	max_gap = 0;
	slow_until = slow_ns = 0;
	rng = 1;
	refs[0] = mk(0, "HPET", 14318180, 0xffffffff, false);
	refs[1] = mk(1, "PM timer", 3579545, 0xffffff, false);
	refs[2] = mk(2, "PIT", 1193182, 0xffff, true);
	return 0;
}

/* Simulated ns in TSC cycles. */
static u64 ns_cycles(u64 ns)
{
	return (u64)((unsigned __int128)ns * TRUE_HZ / NS);
}

/* Within ppm of the simulated TSC. */
static void near(u64 khz, u32 ppm)
{
	s32 d = tsc_cal_dev_ppm(khz, TRUE_KHZ);

	if ((d < 0 ? -d : d) > (s32)ppm)
		fail_msg("%llu kHz is %d ppm off %llu", (unsigned long long)khz,
			 d, (unsigned long long)TRUE_KHZ);
}

static void test_window_each_reference(void **s)
{
	u64 khz;

	(void)s;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(tsc_cal_window(&refs[i], 10000, 2000, &khz),
				 0);
		near(khz, 300);
	}
	/* a longer window is more precise */
	assert_int_equal(tsc_cal_window(&refs[2], 50000, 2000, &khz), 0);
	near(khz, 60);
}

static void test_descheduled_bracket_is_thrown_away(void **s)
{
	u64 khz = 0;

	(void)s;
	/* every bracket read of the window takes 30 ms longer: no window
	 * it measures can be trusted */
	desched_n = 1000;
	desched_ns = 30000000;
	assert_int_equal(tsc_cal_window(&refs[1], 10000, 2000, &khz), -EAGAIN);
	assert_int_equal(khz, 0);
}

static void test_descheduled_end_bracket_is_retried(void **s)
{
	u64 khz;

	(void)s;
	/* the end sample's first try (the first bracket read once the
	 * 10 ms have passed) is hit; the next try is tight */
	desched_at = now + 9900000;
	desched_n = 1;
	desched_ns = 30000000;
	assert_int_equal(tsc_cal_window(&refs[1], 10000, 2000, &khz), 0);
	assert_int_equal(desched_n, 0); /* it did happen */
	near(khz, 300);
}

static void test_descheduled_while_waiting_is_harmless(void **s)
{
	u64 khz;

	(void)s;
	wait_at = now + 3000000;
	wait_ns = 25000000; /* longer than the window itself */
	assert_int_equal(tsc_cal_window(&refs[0], 10000, 2000, &khz), 0);
	assert_int_equal(wait_ns, 0);
	near(khz, 300);
}

static void test_pit_turn_lost_unseen_is_thrown_away(void **s)
{
	u64 khz = 0;

	(void)s;
	/* 60 ms away from a 16-bit counter at 1.19 MHz (a turn is 55 ms):
	 * the count alone cannot tell */
	wait_at = now + 3000000;
	wait_ns = 60000000;
	assert_int_equal(tsc_cal_window(&refs[2], 10000, 2000, &khz), -EAGAIN);
	assert_int_equal(wait_ns, 0);
}

static void test_pit_that_never_counts(void **s)
{
	struct tsc_cal_result res;
	u64 khz, t0 = now;

	(void)s;
	sims[2].dead = true;
	assert_int_equal(tsc_cal_window(&refs[2], 10000, 2000, &khz), -ENODEV);
	/* given up within 0.1 s (TSC_CAL_DEAD_CYCLES, 55 ms here), not
	 * after 2^36 cycles (28 s) as the old PIT wait did */
	assert_true(now - t0 < 100000000);
	/* no PIT means another reference, not a guess */
	assert_int_equal(tsc_cal_run(&refs[1], 2, &tsc_cal_default, &res), 0);
	assert_int_equal(res.refs[0].state, REF_USED);
	assert_int_equal(res.refs[1].state, REF_DEAD);
	assert_string_equal(res.long_ref, "PM timer");
	assert_true(res.confirmed);
	near(res.khz, 100);
}

static void test_no_reference_at_all(void **s)
{
	struct tsc_cal_result res;
	u64 t0 = now;

	(void)s;
	sims[0].dead = sims[1].dead = sims[2].dead = true;
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), -ENODEV);
	assert_int_equal(res.khz, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(res.refs[i].state, REF_DEAD);
	/* one bounded wait per reference */
	assert_true(now - t0 < 300000000);
}

static void test_three_references_agree(void **s)
{
	struct tsc_cal_result res;

	(void)s;
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(res.refs[i].state, REF_USED);
		assert_int_equal(res.refs[i].good, 3);
		near(res.refs[i].khz, 500);
	}
	assert_true(res.confirmed);
	assert_string_equal(res.long_ref, "HPET");
	assert_int_equal(res.khz, res.long_khz);
	near(res.khz, 60);
	/* quiet: one round of 10 ms windows, a 50 ms confirmation, well
	 * under 0.2 s */
	assert_false(res.fallback);
	assert_int_equal(res.rounds, 1);
	assert_int_equal(res.short_max_us, 10000);
	assert_int_equal(res.long_us, 50000);
	assert_true(res.cycles < ns_cycles(200000000));
}

static void test_odd_one_out(void **s)
{
	struct tsc_cal_result res;

	(void)s;
	sims[2].skew_ppm = 30000; /* the PIT runs 3 % fast */
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), 0);
	assert_int_equal(res.refs[2].state, REF_DISAGREES);
	assert_int_equal(res.refs[0].state, REF_USED);
	near(res.khz, 100);
	/* two that disagree: the first (better) one wins */
	sims[1].skew_ppm = -30000;
	sims[2].skew_ppm = 0;
	assert_int_equal(tsc_cal_run(&refs[1], 2, &tsc_cal_default, &res), 0);
	assert_int_equal(res.refs[0].state, REF_USED);
	assert_int_equal(res.refs[1].state, REF_DISAGREES);
	assert_string_equal(res.long_ref, "PM timer");
	/* a reference 3 % slow makes the TSC look 3 % fast */
	assert_int_equal(tsc_cal_dev_ppm(res.khz, TRUE_KHZ) / 1000, 30);
}

static void test_loaded_host(void **s)
{
	struct tsc_cal_result res;

	(void)s;
	/* a deschedule of 1..20 ms in one of every 300 reads: windows get
	 * hit in their brackets and during their waits */
	load_every = 300;
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), 0);
	assert_true(max_gap >= 1000000);
	assert_true(res.confirmed);
	near(res.khz, 2000);
	for (int i = 0; i < 3; i++)
		assert_true(res.refs[i].tried >= res.refs[i].good);
}

static void test_pit_turn_lost_before_first_count(void **s)
{
	u64 khz = 0;

	(void)s;
	/* away 60 ms between the start sample and the first wait read:
	 * with no rate seen yet, only the gap itself can tell */
	wait_at = now + 5000;
	wait_ns = 60000000;
	assert_int_equal(tsc_cal_window(&refs[2], 10000, 2000, &khz), -EAGAIN);
	assert_int_equal(wait_ns, 0);
}

static void test_pit_turn_lost_before_end_sample(void **s)
{
	u64 khz = 0;

	(void)s;
	/* away 60 ms between the last wait read and the end sample: the
	 * end bracket is tight, the lost turn is not in it */
	gap_at = now + 9000000;
	gap_ns = 60000000;
	assert_int_equal(tsc_cal_window(&refs[2], 10000, 2000, &khz), -EAGAIN);
	assert_int_equal(gap_ns, 0);
}

static void test_deschedule_after_a_read_is_not_a_dead_clock(void **s)
{
	struct tsc_cal_result res;
	u64 khz = 0;
	int rc;

	(void)s;
	/* Reads faster than the PIT counts, so some read what the one
	 * before did; after one of those, 100 ms away (past the 55 ms
	 * dead limit) before the TSC read. The PIT did count: the window
	 * is thrown away (a turn may be lost), the PIT is not dead. */
	ref_cost = 300;
	after_same = true;
	after_at = now + 3000000;
	after_ns = 100000000;
	rc = tsc_cal_window(&refs[2], 10000, 2000, &khz);
	assert_int_equal(after_ns, 0); /* it did happen */
	assert_int_equal(rc, -EAGAIN);
	/* and the calibration retries it: used, not "did not count" */
	after_at = now + 3000000;
	after_ns = 100000000;
	assert_int_equal(tsc_cal_run(&refs[2], 1, &tsc_cal_default, &res), 0);
	assert_int_equal(after_ns, 0);
	assert_int_equal(res.refs[0].state, REF_USED);
	assert_false(res.fallback);
	near(res.khz, 100);
	/* 1.2 s away, past the longest wait, on the HPET: the reference
	 * moved, the wait overran only in appearance; one more read ends
	 * the window, and a deschedule there is not in any bracket */
	after_same = false;
	after_at = now + 3000000;
	after_ns = 1200000000;
	assert_true(ns_cycles(after_ns) > TSC_CAL_MAX_WAIT_CYCLES);
	assert_int_equal(tsc_cal_window(&refs[0], 10000, 2000, &khz), 0);
	assert_int_equal(after_ns, 0);
	near(khz, 300);
}

static void test_loaded_host_needs_longer_windows(void **s)
{
	struct tsc_cal_result res;
	u64 khz;

	(void)s;
	/* Every read takes 25 us, the vCPU thread waiting its turn on two
	 * loaded cores (288 vCPU threads): a bracket is 0.25 % of a 10 ms
	 * window, over the 0.2 % bound, and 0.125 % of a 20 ms one. */
	ref_cost = 25000;
	for (int i = 0; i < 3; i++)
		assert_int_equal(tsc_cal_window(&refs[i], 10000, 2000, &khz),
				 -EAGAIN);
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), 0);
	assert_false(res.fallback);
	/* six 10 ms windows each, all thrown away; then 20 ms ones */
	assert_int_equal(res.rounds, 2);
	assert_int_equal(res.short_max_us, 20000);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(res.refs[i].wide, 6);
		assert_int_equal(res.refs[i].state, REF_USED);
		near(res.refs[i].khz, 2000);
	}
	assert_true(res.confirmed);
	assert_int_equal(res.long_us, 100000); /* longer too */
	near(res.khz, 500);
	assert_true(res.cycles <= tsc_cal_default.budget_cycles);
}

static void test_fallback_best_supported(void **s)
{
	struct tsc_cal_cfg c = tsc_cal_default;
	struct tsc_cal_result res;

	(void)s;
	/* One window per reference and no longer ones: no reference has
	 * two, so none is used; the three windows agree and are taken. */
	c.want = 1;
	c.tries = 1;
	c.max_window_us = c.window_us;
	assert_int_equal(tsc_cal_run(refs, 3, &c, &res), 0);
	assert_true(res.fallback);
	assert_int_equal(res.consensus_khz, 0);
	assert_false(res.confirmed);
	assert_int_equal(res.fb_windows, 3);
	assert_int_equal(res.fb_total, 3);
	assert_int_equal(res.fb_refs, 7);
	assert_true(res.fb_spread_ppm < 1000);
	for (int i = 0; i < 3; i++)
		assert_int_equal(res.refs[i].state, REF_NOISY);
	near(res.khz, 500);
	/* the PIT 3 % fast: the HPET and PM timer windows outvote it */
	sims[2].skew_ppm = 30000;
	assert_int_equal(tsc_cal_run(refs, 3, &c, &res), 0);
	assert_true(res.fallback);
	assert_int_equal(res.fb_windows, 2);
	assert_int_equal(res.fb_total, 3);
	assert_int_equal(res.fb_refs, 3);
	near(res.khz, 500);
}

static void test_fallback_loose_window_within_budget(void **s)
{
	struct tsc_cal_cfg c = tsc_cal_default;
	struct tsc_cal_result res;
	u64 t0 = now;

	(void)s;
	/* Every read takes 1 ms: even an 80 ms window's brackets are over
	 * 1 %. The default budget bounds the whole run, and the answer is
	 * the tightest window, with its error bound. */
	ref_cost = 1000000;
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), 0);
	assert_true(res.fallback);
	assert_int_equal(res.fb_windows, 0);
	assert_true(res.fb_err_ppm > tsc_cal_default.max_err_ppm);
	near(res.khz, res.fb_err_ppm);
	assert_true(res.cycles <= tsc_cal_default.budget_cycles);
	assert_true(ns_cycles(now - t0) <= tsc_cal_default.budget_cycles);
	/* A starved vCPU thread (a load average of 100: 288 vCPU threads
	 * on two cores), every read taking 40 ms, and a budget of 600 ms:
	 * the reads that measure a read's cost and those of the brackets
	 * stop at the budget too, a read or two past it at most; the
	 * references the budget did not reach say so. */
	ref_cost = 40000000;
	c.budget_cycles = ns_cycles(600000000);
	t0 = now;
	assert_int_equal(tsc_cal_run(refs, 3, &c, &res), 0);
	assert_true(res.cycles <= c.budget_cycles + ns_cycles(2 * ref_cost));
	assert_true(res.fallback);
	near(res.khz, res.fb_err_ppm);
	assert_int_equal(res.refs[0].wide, 1);
	assert_int_equal(res.refs[0].overran, 1);
	for (int i = 1; i < 3; i++) {
		assert_int_equal(res.refs[i].state, REF_UNTRIED);
		assert_int_equal(res.refs[i].tried, 0);
	}
	assert_string_equal(tsc_ref_state_name(REF_UNTRIED),
			    "not tried, no time left");
	/* and nothing to go on at all is still an error */
	sims[0].dead = sims[1].dead = sims[2].dead = true;
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), -ENODEV);
	assert_false(res.fallback);
	assert_int_equal(res.khz, 0);
}

static void test_starved_start_gets_more_budgets(void **s)
{
	struct tsc_cal_result res;
	u64 budget = tsc_cal_default.budget_cycles, t0 = now;

	(void)s;
	/* Every reference read takes 0.9 s for the first three budgets (a
	 * 288-vCPU QEMU on a loaded two-core host): no window ends in the
	 * first budget, not even a loose one. Nothing counted is not
	 * "no reference": more budgets, then the rate. */
	slow_ns = 900000000;
	slow_until = now + 3 * budget * NS / TRUE_HZ;
	assert_int_equal(tsc_cal_run(refs, 3, &tsc_cal_default, &res), 0);
	assert_true(res.extended >= 1);
	assert_true(res.extended <= TSC_CAL_STARVED_BUDGETS);
	assert_false(res.fallback);
	near(res.khz, 1000);
	/* Starved for good: the extra budgets end too, a read past each. */
	setup(NULL);
	slow_ns = 900000000;
	slow_until = ~0ULL;
	t0 = now;
	(void)tsc_cal_run(refs, 3, &tsc_cal_default, &res);
	assert_true(res.extended <= TSC_CAL_STARVED_BUDGETS);
	assert_true(ns_cycles(now - t0) <=
		    (1 + TSC_CAL_STARVED_BUDGETS) * budget +
			    ns_cycles(16 * slow_ns));
}

static void test_median_and_spread(void **s)
{
	u64 odd[] = { 30, 10, 20 }, even[] = { 40, 10, 30, 20 };
	u32 spread;

	(void)s;
	assert_int_equal(tsc_cal_median(odd, 3, &spread), 20);
	assert_int_equal(spread, 1000000); /* (30 - 10) / 20 */
	assert_int_equal(odd[0], 10); /* sorted in place */
	assert_int_equal(tsc_cal_median(even, 4, &spread), 25);
	assert_int_equal(spread, 1200000);
	assert_int_equal(tsc_cal_dev_ppm(1001000, 1000000), 1000);
	assert_int_equal(tsc_cal_dev_ppm(999000, 1000000), -1000);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_window_each_reference),
		T(test_descheduled_bracket_is_thrown_away),
		T(test_descheduled_end_bracket_is_retried),
		T(test_descheduled_while_waiting_is_harmless),
		T(test_pit_turn_lost_unseen_is_thrown_away),
		T(test_pit_that_never_counts),
		T(test_no_reference_at_all),
		T(test_three_references_agree),
		T(test_odd_one_out),
		T(test_loaded_host),
		T(test_pit_turn_lost_before_first_count),
		T(test_pit_turn_lost_before_end_sample),
		T(test_deschedule_after_a_read_is_not_a_dead_clock),
		T(test_loaded_host_needs_longer_windows),
		T(test_fallback_best_supported),
		T(test_fallback_loose_window_within_budget),
		T(test_starved_start_gets_more_budgets),
		T(test_median_and_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
