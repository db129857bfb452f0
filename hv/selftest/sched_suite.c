// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/sched_suite.c - tests=sched: vCPUs sharing CPUs, each case in
 * guests of its own (docs/SCHED.md): the spinlock scenario with twice as
 * many vCPUs as CPUs under pause_yield=none and =directed (both must finish
 * with the exact count; directed in fewer PAUSE exits), a vCPU that never
 * exits beside vCPU 0 on one CPU (vCPU 0 gets its CPU back), and two guests
 * on one CPU, one spinning forever without an exit: the other must finish
 * first (a guest cannot starve another). The pool is whole after each. */
#include "hv/guest/guest.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/run/run.h"
#include "hv/selftest/selftest.h"
#include "hv/smp/ipi.h"
#include "hv/smp/time.h"
#include "lib/fmt.h"
#include "lib/select.h"
#include "lib/string.h"

#define SPIN_TIME_MS 120000 /* a bound for a broken run, never reached */

struct outcome {
	bool created, clean;
	u64 pause, tsc, stop_tsc;
	char why[200];
};

bool sched_suite_wanted(const char *tests)
{
	return select_has_word(tests, "sched");
}

static bool contains(const char *s, const char *part)
{
	size_t n = strlen(part);

	for (; *s; s++)
		if (!strncmp(s, part, n))
			return true;
	return false;
}

static void collect(struct guest *g, u64 t0, struct outcome *o)
{
	struct hc_counters c;
	char res[112];
	bool results = guest_results_ok(g, res, sizeof(res));

	guest_counters(g, &c);
	o->pause = c.pause;
	o->tsc = g->stop_tsc - t0;
	o->stop_tsc = g->stop_tsc;
	o->clean = !g->failed && g->exit_status == 0 && !g->report_fails &&
		   results;
	fmt_snprintf(o->why, sizeof(o->why), "%s; results: %s", g->stop_reason,
		     res);
	pr_info("sched: guest %s: %s; %llu PAUSE exits in %llu TSC\n", g->name,
		o->why, (unsigned long long)o->pause,
		(unsigned long long)o->tsc);
}

/* Guests ps[0..n) at once, start to teardown; the pool whole after. */
static bool run(const struct guest_params *ps, u32 n, struct outcome *o)
{
	struct guest *gs[2];
	u64 before = mm_free_pages(), t0;
	u32 made = 0;

	for (u32 i = 0; i < n; i++) {
		o[i] = (struct outcome){ 0 };
		if (guest_create(&ps[i], &gs[made]) == 0) {
			o[i].created = true;
			made++;
		}
	}
	t0 = rdtsc();
	if (made == n)
		run_guests(gs, n);
	for (u32 i = 0; i < made; i++) {
		if (made == n)
			collect(gs[i], t0, &o[i]);
		guest_destroy(gs[i]);
	}
	return made == n && mm_free_pages() == before;
}

static void spinlock_pair(struct guest_params p)
{
	struct outcome none, dir;
	u32 cpus = ipi_online_count();
	bool ok_none, ok_dir;

	p.nr_vcpus = cpus > 1 ? 2 * cpus : 2;
	if (p.nr_vcpus > 8)
		p.nr_vcpus = 8; /* two on each of up to four CPUs: enough */
	p.cpus = p.nr_vcpus == 8 ? "0-3" : NULL;
	p.tests = "sched_spinlock";
	p.time_ms = SPIN_TIME_MS;
	p.name = "spin-none";
	p.sched.yield = YIELD_NONE;
	ok_none = run(&p, 1, &none);
	p.name = "spin-directed";
	p.sched.yield = YIELD_DIRECTED;
	ok_dir = run(&p, 1, &dir);
	ktap_ok("sched.spinlock_none", ok_none && none.clean,
		"%u vCPUs, pause_yield=none: %s", p.nr_vcpus, none.why);
	ktap_ok("sched.spinlock_directed", ok_dir && dir.clean,
		"%u vCPUs, pause_yield=directed: %s", p.nr_vcpus, dir.why);
	ktap_ok("sched.directed_fewer_pause_exits",
		none.clean && dir.clean && dir.pause < none.pause,
		"PAUSE exits: directed %llu, none %llu",
		(unsigned long long)dir.pause, (unsigned long long)none.pause);
	pr_info("sched: spinlock, %u vCPUs on %u CPUs: none %llu PAUSE exits in %llu TSC, directed %llu in %llu TSC\n",
		p.nr_vcpus, p.nr_vcpus / 2, (unsigned long long)none.pause,
		(unsigned long long)none.tsc, (unsigned long long)dir.pause,
		(unsigned long long)dir.tsc);
}

static void hog(struct guest_params p)
{
	struct outcome o;
	bool ok;

	p.nr_vcpus = 2;
	p.cpus = "0"; /* vCPU 1, the hog, on vCPU 0's CPU */
	p.tests = "sched_hog";
	p.name = "hog";
	ok = run(&p, 1, &o);
	ktap_ok("sched.hog_preempted", ok && o.clean,
		"a vCPU that never exits beside vCPU 0 on CPU 0: %s", o.why);
}

/* Guest "spinner" never exits (an endless CLI loop, stopped by the
 * watchdog once it has run watchdog_ms without progress); guest "polite"
 * says hello. On one CPU, polite must end first and cleanly. */
static void two_guests(struct guest_params p)
{
	struct guest_params ps[2] = { p, p };
	struct outcome o[2];
	bool ok;

	for (int i = 0; i < 2; i++) {
		ps[i].nr_vcpus = 1;
		ps[i].cpus = "0";
	}
	ps[0].name = "spinner";
	ps[0].tests = "hostile_cli_loop";
	ps[1].name = "polite";
	ps[1].tests = "hello";
	ok = run(ps, 2, o);
	ktap_ok("sched.guests_fair",
		ok && o[1].clean && o[1].stop_tsc < o[0].stop_tsc &&
			contains(o[0].why, "no progress"),
		"on one CPU: polite %s after %llu TSC; spinner %s after %llu TSC",
		o[1].why, (unsigned long long)o[1].tsc, o[0].why,
		(unsigned long long)o[0].tsc);
}

void sched_suite_run(const struct guest_params *p)
{
	spinlock_pair(*p);
	hog(*p);
	two_guests(*p);
}
