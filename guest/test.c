// SPDX-License-Identifier: GPL-2.0-only
/* guest/test.c - runs the selected scenarios: supported() or SKIP, the body
 * with report() checks, then one HC_REPORT per scenario. */
#include "guest/test.h"
#include "guest/atomic.h"
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/smp.h"
#include "lib/fmt.h"
#include "lib/select.h"
#include "lib/string.h"

/* The scenario now running; report() may come from any vCPU. */
static struct {
	spinlock_t lock;
	const char *name;
	unsigned int pass, fail;
	char diag[HC_MAX_DIAG_LEN]; /* the first failure, or a skip reason */
	char skip[HC_MAX_DIAG_LEN];
} cur;

static void lock(void)
{
	spin_lock_nopause(&cur.lock); /* PAUSE would skew the pause scenario */
}

bool report_at(const char *file, int line, bool cond, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lock();
	if (cond) {
		cur.pass++;
	} else {
		if (cur.fail++ == 0)
			fmt_snprintf(cur.diag, sizeof(cur.diag), "%s:%d: %s",
				     file, line, msg);
		printf("%s: FAIL %s:%d: %s\n", cur.name, file, line, msg);
	}
	spin_unlock(&cur.lock);
	return cond;
}

void report_skip(const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lock();
	if (!cur.skip[0])
		fmt_snprintf(cur.skip, sizeof(cur.skip), "%s", msg);
	printf("%s: skip: %s\n", cur.name, msg);
	spin_unlock(&cur.lock);
}

void report_info(const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("%s: %s\n", cur.name, msg);
}

static long send(const char *name, enum hc_result res, const char *diag)
{
	return hc_report(name, res, diag, strlen(diag));
}

/* Body under a catcher: an unexpected exception fails the scenario. */
static void run_body(const struct scenario *s)
{
	struct vcpu_local *v = this_vcpu();

	if (guest_setjmp(&v->test_jb) == 0) {
		v->test_armed = true;
		s->body();
		v->test_armed = false;
	} else {
		report(false, "unexpected exception (see the line above)");
	}
}

/* Runs one scenario; returns its result. */
static enum hc_result run_one(const struct scenario *s)
{
	const char *why = s->supported ? s->supported() : NULL;
	enum hc_result res;
	char diag[HC_MAX_DIAG_LEN];

	if (why) {
		send(s->name, HC_RESULT_SKIP, why);
		return HC_RESULT_SKIP;
	}
	memset(&cur, 0, sizeof(cur));
	cur.name = s->name;
	run_body(s);
	if (cur.fail) {
		res = HC_RESULT_FAIL;
		fmt_snprintf(diag, sizeof(diag),
			     "%u of %u checks failed, first: %s", cur.fail,
			     cur.fail + cur.pass, cur.diag);
	} else if (cur.pass == 0 && cur.skip[0]) {
		res = HC_RESULT_SKIP;
		fmt_snprintf(diag, sizeof(diag), "%s", cur.skip);
	} else if (cur.pass == 0) {
		res = HC_RESULT_FAIL;
		fmt_snprintf(diag, sizeof(diag), "no checks were made");
	} else {
		res = HC_RESULT_OK;
		fmt_snprintf(diag, sizeof(diag), "%u checks%s%s", cur.pass,
			     cur.skip[0] ? ", partly skipped: " : "", cur.skip);
	}
	send(s->name, res, diag);
	return res;
}

/* Patterns that select nothing are a mistake worth a failed result. */
static unsigned int check_patterns(const char *p, bool do_report)
{
	unsigned int bad = 0;
	size_t n;

	for (p = select_next(p, &n); p; p = select_next(p + n, &n)) {
		struct scenario probe = { 0 };
		char diag[HC_MAX_DIAG_LEN];
		bool hit = false;

		for (unsigned int i = 0; i < scenario_count && !hit; i++) {
			probe = *scenario_list[i];
			hit = select_glob(p, n, probe.name) ||
			      select_glob(p, n, probe.group);
		}
		if (!hit) {
			bad++;
			if (do_report) {
				fmt_snprintf(
					diag, sizeof(diag),
					"no scenario or group matches '%.*s'",
					(int)n, p);
				printf("%s\n", diag);
				send("select", HC_RESULT_FAIL, diag);
			}
		}
	}
	return bad;
}

unsigned int run_scenarios(const char *patterns)
{
	unsigned int i, n = 0, failed, counts[3] = { 0 };

	for (i = 0; i < scenario_count; i++)
		n += scenario_selected(scenario_list[i], patterns);
	failed = check_patterns(patterns, false);
	hc_test_plan(n + failed); /* older hypervisors: -ENOSYS, harmless */
	printf("running %u scenario(s), filter '%s'\n", n, patterns);
	failed = check_patterns(patterns, true);
	for (i = 0; i < scenario_count; i++)
		if (scenario_selected(scenario_list[i], patterns))
			counts[run_one(scenario_list[i])]++;
	printf("done: %u ok, %u failed, %u skipped\n", counts[HC_RESULT_OK],
	       counts[HC_RESULT_FAIL] + failed, counts[HC_RESULT_SKIP]);
	return counts[HC_RESULT_FAIL] + failed;
}
