/* hv/ktap.c - KTAP result collection and printing.
 * Storage is a fixed array in .bss, not the page pool, so recording a result
 * never changes the pool's free count that tests compare. */
#include "hv/ktap.h"
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

static struct ktap_result results[KTAP_MAX_RESULTS];
static u32 count, failures, skips;
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

static void record(const char *name, enum ktap_kind kind, const char *fmt,
		   va_list ap)
{
	struct ktap_result *r;

	spin_lock(&lock);
	if (count == KTAP_MAX_RESULTS) {
		spin_unlock(&lock);
		pr_err("ktap: out of result storage, '%s' lost\n", name);
		return;
	}
	r = &results[count++];
	if (kind == KTAP_FAIL)
		failures++;
	if (kind == KTAP_SKIP)
		skips++;
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
}

bool ktap_ok(const char *name, bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(name, cond ? KTAP_PASS : KTAP_FAIL, fmt, ap);
	va_end(ap);
	return cond;
}

void ktap_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record(name, KTAP_SKIP, fmt, ap);
	va_end(ap);
}

u32 ktap_count(void)
{
	return count;
}

u32 ktap_failures(void)
{
	return failures;
}

u32 ktap_finish(void)
{
	kprintf("KTAP version 1\n1..%u\n", count);
	for (u32 i = 0; i < count; i++) {
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
	kprintf("# Totals: pass:%u fail:%u skip:%u\n", count - failures - skips,
		failures, skips);
	return failures;
}

void ktap_reset(void)
{
	count = failures = skips = 0;
}
