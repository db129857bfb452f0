// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/report.c - HC_REPORT results become KTAP lines (hv/ktap.h): the
 * guest's name for the test, its result, its diagnostic. Guests cannot use
 * the hypervisor's names, send more than they planned, or crowd out the
 * hypervisor's own results. */
#include "hv/guest/guest.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "lib/fmt.h"
#include "lib/string.h"

/* Every prefix minhv itself reports under (and ktap.results_lost). */
static const char *const hv_names[] = {
	"boot.", "smp.",   "mtrr.",    "park.",	    "svm.",  "snp.",
	"ipi.",	 "bench.", "hostile.", "lifecycle", "ktap.",
};

static bool hv_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(hv_names); i++)
		if (!strncmp(name, hv_names[i], strlen(hv_names[i])))
			return true;
	return false;
}

/* Count a dropped report; say so once per guest. */
static void dropped(struct guest *g, u32 *counter, const char *name,
		    const char *why)
{
	if (__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED) == 0)
		pr_err("guest %s: result '%s' dropped: %s\n", g->name, name,
		       why);
}

void guest_report(struct guest *g, const char *name, enum hc_result r,
		  const char *diag)
{
	u32 n = __atomic_add_fetch(&g->reports, 1, __ATOMIC_RELAXED);
	u64 plan = __atomic_load_n(&g->plan, __ATOMIC_ACQUIRE);
	char full[KTAP_NAME_LEN];
	bool stored;

	if (plan && n > plan - 1) {
		dropped(g, &g->beyond_plan, name, "beyond the guest's plan");
		return;
	}
	if (n > GUEST_MAX_REPORTS) {
		dropped(g, &g->over_share, name,
			"beyond the guest's share of results");
		return;
	}
	if (hv_name(name)) { /* a forgery of the hypervisor's own result */
		fmt_snprintf(full, sizeof(full), "guest.%s", name);
		__atomic_add_fetch(&g->report_fails, 1, __ATOMIC_RELAXED);
		stored = ktap_guest_ok(
			full, false,
			"%s: a guest result may not use the hypervisor's name '%s'",
			g->name, name);
	} else if (r == HC_RESULT_SKIP) {
		stored = ktap_guest_skip(name, "%s",
					 *diag ? diag : "skipped by the guest");
	} else {
		if (r != HC_RESULT_OK)
			__atomic_add_fetch(&g->report_fails, 1,
					   __ATOMIC_RELAXED);
		stored = ktap_guest_ok(name, r == HC_RESULT_OK, "%s: %s",
				       g->name,
				       *diag ? diag : "failed (no diagnostic)");
	}
	if (!stored)
		__atomic_add_fetch(&g->lost_reports, 1, __ATOMIC_RELAXED);
}

bool guest_results_ok(const struct guest *g, char *why, size_t n)
{
	u64 plan = g->plan;
	u32 got = g->reports - g->beyond_plan - g->over_share;

	if (g->beyond_plan || g->over_share || g->lost_reports) {
		fmt_snprintf(
			why, n,
			"%u results beyond the plan, %u beyond the share of %u, %u found no room",
			g->beyond_plan, g->over_share, GUEST_MAX_REPORTS,
			g->lost_reports);
		return false;
	}
	if (plan && got < plan - 1) {
		fmt_snprintf(why, n, "%u results of %llu planned", got,
			     (unsigned long long)(plan - 1));
		return false;
	}
	fmt_snprintf(why, n, "%u results%s", got, plan ? " as planned" : "");
	return true;
}
