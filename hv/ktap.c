// SPDX-License-Identifier: GPL-2.0-only
/* hv/ktap.c - KTAP result collection and printing.
 * Storage is a fixed array in .bss (no bytes in minhv.efi), not the page
 * pool, so recording a result never changes the pool's free count that
 * tests compare. Guests get only
 * part of it, so the hypervisor's own results always fit, and a lost result
 * fails the run. */
#include "hv/ktap.h"
#include "hv/ktap_internal.h"
#include "lib/fmt.h"
#include "arch/spinlock.h"
#include "lib/string.h"
#include "hv/log.h"

enum ktap_kind { KTAP_PASS, KTAP_FAIL, KTAP_SKIP };

struct ktap_result {
	char name[KTAP_NAME_LEN];
	char diag[KTAP_DIAG_LEN];
	u8 kind;
};

static struct ktap_result results[KTAP_CAPACITY];
/* The tally (hv/ktap_internal.h); results[] past count is stale. */
struct ktap_tally g_ktap;
static spinlock_t lock;

/* Copy a name, replacing characters that would break a KTAP line. */
static void copy_name(char *d, const char *s)
{
	size_t i = 0;

	for (; s[i] && i < KTAP_NAME_LEN - 1; i++)
		d[i] = (s[i] == '#' || s[i] == '\n' || s[i] == ' ') ? '_' :
								      s[i];
	d[i] = 0;
}

static bool record(const char *name, enum ktap_kind kind, bool guest,
		   const char *fmt, va_list ap)
{
	struct ktap_result *r;

	spin_lock(&lock);
	if (g_ktap.count == KTAP_CAPACITY ||
	    (guest && g_ktap.count >= KTAP_CAPACITY - KTAP_HV_RESERVE)) {
		g_ktap.lost++;
		spin_unlock(&lock);
		pr_err("ktap: out of %s result storage, '%s' lost\n",
		       guest ? "guest" : "the", name);
		return false;
	}
	r = &results[g_ktap.count++];
	if (kind == KTAP_FAIL)
		g_ktap.failures++;
	if (kind == KTAP_SKIP)
		g_ktap.skips++;
	copy_name(r->name, name);
	r->kind = (u8)kind;
	r->diag[0] = 0;
	if (fmt)
		fmt_vsnprintf(r->diag, sizeof(r->diag), fmt, ap);
	for (char *p = r->diag; *p; p++)
		if (*p == '\n')
			*p = ' ';
	spin_unlock(&lock);
	pr_info("result: %s %s%s%s\n", r->name,
		kind == KTAP_PASS ? "ok" :
		kind == KTAP_FAIL ? "FAILED" :
				    "skip",
		r->diag[0] && kind != KTAP_PASS ? ": " : "",
		kind != KTAP_PASS ? r->diag : "");
	return true;
}

bool ktap_ok(const char *name, bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(name, cond ? KTAP_PASS : KTAP_FAIL, false, fmt, ap);
	va_end(ap);
	return cond;
}

bool ktap_guest_ok(const char *name, bool cond, const char *fmt, ...)
{
	va_list ap;
	bool stored;

	va_start(ap, fmt);
	stored = record(name, cond ? KTAP_PASS : KTAP_FAIL, true, fmt, ap);
	va_end(ap);
	return stored;
}

bool ktap_guest_skip(const char *name, const char *fmt, ...)
{
	va_list ap;
	bool stored;

	va_start(ap, fmt);
	stored = record(name, KTAP_SKIP, true, fmt, ap);
	va_end(ap);
	return stored;
}

void ktap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(name, KTAP_SKIP, false, fmt, ap);
	va_end(ap);
}

u32 ktap_count(void)
{
	return g_ktap.count;
}

u32 ktap_failures(void)
{
	return g_ktap.failures;
}

u32 ktap_lost(void)
{
	return g_ktap.lost;
}

u32 ktap_finish(void)
{
	u32 extra = g_ktap.lost ? 1 : 0; /* the lost results, as one failure */

	kprintf("KTAP version 1\n1..%u\n", g_ktap.count + extra);
	for (u32 i = 0; i < g_ktap.count; i++) {
		const struct ktap_result *r = &results[i];

		if (r->kind == KTAP_SKIP)
			kprintf("ok %u %s # SKIP %s\n", i + 1, r->name,
				r->diag);
		else if (r->kind == KTAP_PASS)
			kprintf("ok %u %s\n", i + 1, r->name);
		else
			kprintf("# %s: %s\nnot ok %u %s\n", r->name, r->diag,
				i + 1, r->name);
	}
	if (extra)
		kprintf("# ktap.results_lost: %u results found no room\nnot ok %u ktap.results_lost\n",
			g_ktap.lost, g_ktap.count + 1);
	kprintf("# Totals: pass:%u fail:%u skip:%u\n",
		g_ktap.count - g_ktap.failures - g_ktap.skips,
		g_ktap.failures + extra, g_ktap.skips);
	return g_ktap.failures + extra;
}
