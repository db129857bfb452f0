/* hv/selftest/svm_suite.c - tests=hostile|lifecycle|all: after the default suite,
 * each hostile scenario in a fresh guest of its own, and guests created and
 * torn down many times; the pool must come back whole each time. */
#include "hv/guest/guest.h"
#include "hv/ktap.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/svm/svm.h"

#define LIFECYCLE_ROUNDS 20

static const char *const hostile[] = {
	"hostile_read",		"hostile_write",    "hostile_svm",
	"hostile_triple_fault", "hostile_cli_loop", "hostile_storm",
	"hostile_invd",		"hostile_ac_loop",
	/* In this order, one after the other on CPU 0: the first leaves
	 * vector/debug state behind, the next two must not find it. */
	"hostile_xstate_dirty", "hostile_xstate",   "hostile_debugregs",
	"hostile_xsetbv_bad",
};

static bool word_in(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; *p;) {
		while (*p == ',' || *p == ' ')
			p++;
		if (!strncmp(p, w, n) &&
		    (p[n] == 0 || p[n] == ',' || p[n] == ' '))
			return true;
		while (*p && *p != ',' && *p != ' ')
			p++;
	}
	return false;
}

bool svm_suite_wanted(const char *tests)
{
	return word_in(tests, "all") || word_in(tests, "hostile") ||
	       word_in(tests, "lifecycle");
}

/* One guest, start to teardown. Returns 0 when the pool is whole again. */
static int one_guest(const struct guest_params *p, char *why, size_t n)
{
	u64 before = mm_free_pages();
	struct guest *g;
	int r = svm_guest_run_once(p, &g);

	if (r) {
		fmt_snprintf(why, n, "guest_create: %d", r);
		return -1;
	}
	fmt_snprintf(why, n, "%s", g->stop_reason);
	pr_info("svm: guest %s (tests=%s) stopped: %s\n", g->name, p->tests,
		g->stop_reason);
	guest_destroy(g);
	return mm_free_pages() == before ? 0 : -1;
}

static void run_hostile(struct guest_params base)
{
	char why[160], name[48];

	for (size_t i = 0; i < ARRAY_SIZE(hostile); i++) {
		u64 before = mm_free_pages();
		int r;

		base.tests = hostile[i];
		base.name = hostile[i] + 8; /* after "hostile_" */
		r = one_guest(&base, why, sizeof(why));
		fmt_snprintf(name, sizeof(name), "hostile.%s", hostile[i] + 8);
		ktap_ok(name, r == 0,
			"stop: %s; pool %llu free pages after, %llu before",
			why, (unsigned long long)mm_free_pages(),
			(unsigned long long)before);
	}
	/* The hypervisor is alive and the next guest runs normally. */
	base.tests = "hello";
	base.name = "after-hostile";
	ktap_ok("hostile.next_guest_runs",
		one_guest(&base, why, sizeof(why)) == 0 &&
			!strncmp(why, "exited with status 0", 20),
		"guest after the hostile set: %s", why);
}

static void run_lifecycle(struct guest_params base)
{
	u64 before = mm_free_pages();
	char why[160];
	int bad = 0, i;

	base.tests = "hello";
	base.name = "lifecycle";
	for (i = 0; i < LIFECYCLE_ROUNDS; i++)
		if (one_guest(&base, why, sizeof(why)) ||
		    strncmp(why, "exited with status 0", 20))
			bad++;
	ktap_ok("lifecycle", bad == 0 && mm_free_pages() == before,
		"%d of %d guests failed or lost pages; pool %llu free, %llu before",
		bad, LIFECYCLE_ROUNDS, (unsigned long long)mm_free_pages(),
		(unsigned long long)before);
}

void svm_suite_run(const struct guest_params *p)
{
	if (word_in(p->tests, "all") || word_in(p->tests, "hostile"))
		run_hostile(*p);
	if (word_in(p->tests, "all") || word_in(p->tests, "lifecycle"))
		run_lifecycle(*p);
}
