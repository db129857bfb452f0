/* hv/guest/report.c - HC_REPORT results become KTAP lines (hv/ktap.h):
 * the guest's name for the test, its result, its diagnostic. */
#include "hv/guest/guest.h"
#include "hv/ktap.h"

void guest_report(struct guest *g, const char *name, enum hc_result r,
		  const char *diag)
{
	__atomic_add_fetch(&g->reports, 1, __ATOMIC_RELAXED);
	if (r == HC_RESULT_SKIP) {
		ktap_skip(name, "%s", *diag ? diag : "skipped by the guest");
		return;
	}
	if (r != HC_RESULT_OK)
		__atomic_add_fetch(&g->report_fails, 1, __ATOMIC_RELAXED);
	ktap_ok(name, r == HC_RESULT_OK, "%s: %s", g->name,
		*diag ? diag : "failed (no diagnostic)");
}
