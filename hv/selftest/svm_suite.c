// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/svm_suite.c - tests=hostile|lifecycle|all: after the default suite,
 * each hostile scenario in a fresh guest of its own, and guests created and
 * torn down many times; the pool must come back whole each time. */
#include "arch/errno.h"
#include "hv/selftest/selftest.h"
#include "hv/guest/guest.h"
#include "hv/ktap.h"
#include "lib/fmt.h"
#include "lib/phrase.h"
#include "lib/select.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/run/run.h"

#define LIFECYCLE_ROUNDS 20

/* How each hostile guest must end. stop: a phrase of the stop reason, as
 * whole words (has_phrase(): "exited with status 1" is not met by
 * status 10, 11 or 100) (the guest is expected to be stopped, or to exit
 * with that status); NULL: it
 * exits 0 with every result sent, none failed. bad_results: its results
 * must have been flagged (dropped beyond its plan or share). or_clean: a
 * clean exit passes too (hardware that refuses the bad state earlier, in
 * the guest). time_ms: its run-time limit (guests that never end). */
static const struct hostile {
	const char *tests;
	const char *stop;
	bool bad_results;
	bool or_clean;
	u32 time_ms;
} hostile[] = {
	{ .tests = "hostile_read", .stop = "nested page fault" },
	{ .tests = "hostile_write", .stop = "nested page fault" },
	{ .tests = "hostile_svm" },
	{ .tests = "hostile_triple_fault", .stop = "triple fault" },
	{ .tests = "hostile_cli_loop", .stop = "no progress" },
	{ .tests = "hostile_storm" },
	{ .tests = "hostile_report_flood",
	  .stop = "exited with status 1",
	  .bad_results = true },
	{ .tests = "hostile_ctrl_chars" },
	{ .tests = "hostile_invd" },
	{ .tests = "hostile_ac_loop" },
	/* A CPU #GPs the MOV CR0 (APM vol 2, 3.1.1); QEMU lets it through
	 * and fails the next VMRUN (15.5.1). */
	{ .tests = "hostile_cr0_nw",
	  .stop = "CR0.NW set without CR0.CD",
	  .or_clean = true },
	/* Runaways that exit all the time (each exit is "progress" to the
	 * watchdog): only the run-time limit ends them. */
	{ .tests = "hostile_cpuid_loop",
	  .stop = "run-time limit of 1000 ms reached",
	  .time_ms = 1000 },
	{ .tests = "hostile_gp_loop",
	  .stop = "run-time limit of 1000 ms reached",
	  .time_ms = 1000 },
	/* 32-bit address size, 4 MiB in 4 KiB pieces: survives, exit 0. */
	{ .tests = "hostile_rep_outsb" },
	/* Needs 3 vCPUs (else a SKIP, which is a clean exit). */
	{ .tests = "hostile_vcpu_race" },
	{ .tests = "hostile_console_flood",
	  .stop = "; console flood: ",
	  .time_ms = 1000 },
	/* In this order, one after the other on CPU 0: the first leaves
	 * vector/debug state behind, the next two must not find it. */
	{ .tests = "hostile_xstate_dirty" },
	{ .tests = "hostile_xstate" },
	{ .tests = "hostile_debugregs" },
	{ .tests = "hostile_xsetbv_bad" },
};

bool svm_suite_wanted(const char *tests)
{
	return select_has_word(tests, "all") ||
	       select_has_word(tests, "hostile") ||
	       select_has_word(tests, "lifecycle");
}

/* One guest, start to teardown. Returns 0 when it ended as h expects (a
 * clean exit when h is NULL) and the pool is whole again. */
static int one_guest(const struct guest_params *p, const struct hostile *h,
		     char *why, size_t n)
{
	u64 before = mm_free_pages();
	struct guest *g;
	char res[112];
	bool results, as_expected, clean;
	int r = run_guest_once(p, &g);

	if (r) {
		fmt_snprintf(why, n, "guest_create: %d", r);
		return r;
	}
	results = guest_results_ok(g, res, sizeof(res));
	clean = !g->failed && g->exit_status == 0 && !g->report_fails &&
		results;
	if (h && h->stop)
		as_expected = (has_phrase(g->stop_reason, h->stop) &&
			       (!h->bad_results || !results)) ||
			      (h->or_clean && clean);
	else
		as_expected = clean;
	fmt_snprintf(why, n, "%s; results: %s", g->stop_reason, res);
	pr_info("svm: guest %s (tests=%s) stopped: %s\n", g->name, p->tests,
		why);
	guest_destroy(g);
	return as_expected && mm_free_pages() == before ? 0 : -EIO;
}

static void run_hostile(struct guest_params base)
{
	char why[300], name[48];
	u32 time_ms = base.time_ms;

	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		const struct hostile *h = &hostile[i];
		u64 before = mm_free_pages();
		int r;

		base.tests = h->tests;
		base.time_ms = h->time_ms ? h->time_ms : time_ms;
		base.name = h->tests + 8; /* after "hostile_" */
		r = one_guest(&base, h, why, sizeof(why));
		fmt_snprintf(name, sizeof(name), "hostile.%s", h->tests + 8);
		ktap_ok(name, r == 0,
			"want %s%s; stop: %s; pool %llu free pages after, %llu before",
			h->stop ? h->stop : "a clean exit, every result sent",
			h->bad_results ? " with results flagged" : "", why,
			(unsigned long long)mm_free_pages(),
			(unsigned long long)before);
	}
	/* The hypervisor is alive and the next guest runs normally. */
	base.tests = "hello";
	base.time_ms = time_ms;
	base.name = "after-hostile";
	ktap_ok("hostile.next_guest_runs",
		one_guest(&base, NULL, why, sizeof(why)) == 0 &&
			!strncmp(why, "exited with status 0", 20),
		"guest after the hostile set: %s", why);
}

static void run_lifecycle(struct guest_params base)
{
	u64 before = mm_free_pages();
	char why[300];
	int bad = 0, i;

	base.tests = "hello";
	base.name = "lifecycle";
	for (i = 0; i < LIFECYCLE_ROUNDS; i++)
		if (one_guest(&base, NULL, why, sizeof(why)) ||
		    strncmp(why, "exited with status 0", 20))
			bad++;
	ktap_ok("lifecycle", bad == 0 && mm_free_pages() == before,
		"%d of %d guests failed or lost pages; pool %llu free, %llu before",
		bad, LIFECYCLE_ROUNDS, (unsigned long long)mm_free_pages(),
		(unsigned long long)before);
}

void svm_suite_run(const struct guest_params *p)
{
	if (select_has_word(p->tests, "all") ||
	    select_has_word(p->tests, "hostile"))
		run_hostile(*p);
	if (select_has_word(p->tests, "all") ||
	    select_has_word(p->tests, "lifecycle"))
		run_lifecycle(*p);
}
