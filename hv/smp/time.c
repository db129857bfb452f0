// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/time.c - the TSC rate, measured once at boot (hv/time/tsc_cal.c
 * does the measuring, and the log lines here say how it went), and the
 * TSC-based delays and conversions. */
#include "hv/smp/time.h"
#include "arch/cpu.h"
#include "hv/features.h"
#include "hv/log.h"
#include "hv/time/tsc_cal.h"
#include "lib/fmt.h"

u64 g_tsc_khz;

/* One clause per reference: its rate and windows, and whether it was used
 * (or why not). */
static void ref_line(char *buf, size_t n, const struct tsc_cal_result *res)
{
	size_t off = 0;

	buf[0] = 0;
	for (u32 i = 0; i < res->nrefs && off + 1 < n; i++) {
		const struct tsc_cal_ref *r = &res->refs[i];
		bool rate = r->state != REF_DEAD && r->state != REF_NOISY &&
			    r->state != REF_UNTRIED;

		off += (size_t)fmt_snprintf(buf + off, n - off, "%s%s ",
					    i ? "; " : "", r->name);
		if (rate && off + 1 < n)
			off += (size_t)fmt_snprintf(
				buf + off, n - off,
				"%llu.%03llu MHz, spread %u ppm, ",
				(unsigned long long)(r->khz / 1000),
				(unsigned long long)(r->khz % 1000),
				r->spread_ppm);
		if (off + 1 < n)
			off += (size_t)fmt_snprintf(
				buf + off, n - off, "%u/%u windows: %s",
				r->good, r->tried,
				tsc_ref_state_name(r->state));
	}
}

/* The windows thrown away, per reference, when any were: brackets too
 * wide (or a turn maybe lost), or a wait that overran. */
static bool retry_line(char *buf, size_t n, const struct tsc_cal_result *res)
{
	size_t off = 0;
	bool any = false;

	buf[0] = 0;
	for (u32 i = 0; i < res->nrefs && off + 1 < n; i++) {
		const struct tsc_cal_ref *r = &res->refs[i];

		any |= r->wide || r->overran;
		off += (size_t)fmt_snprintf(buf + off, n - off,
					    "%s%s %u too wide, %u overran",
					    i ? "; " : "", r->name, r->wide,
					    r->overran);
	}
	return any;
}

/* "10" or "10-40": the short windows' lengths in ms. */
static void window_ms(char *buf, size_t n, const struct tsc_cal_cfg *c,
		      const struct tsc_cal_result *res)
{
	if (res->short_max_us > c->window_us)
		fmt_snprintf(buf, n, "%u-%u", c->window_us / 1000,
			     res->short_max_us / 1000);
	else
		fmt_snprintf(buf, n, "%u", c->window_us / 1000);
}

/* No consensus in the budget: say what the rate rests on. */
static void warn_fallback(const struct tsc_cal_result *res, u64 ms,
			  const char *wins)
{
	char names[64];
	size_t off = 0;

	names[0] = 0;
	for (u32 i = 0; i < res->nrefs && off + 1 < sizeof(names); i++)
		if (res->fb_refs & 1U << i)
			off += (size_t)fmt_snprintf(names + off,
						    sizeof(names) - off, "%s%s",
						    off ? ", " : "",
						    res->refs[i].name);
	if (res->fb_windows)
		pr_warn("time: TSC %llu.%03llu MHz, NOT a consensus: no reference gave two consistent %s ms windows in %llu ms; the best-supported estimate is the median of %u of %u good windows (%s) within 0.5 %%, spread %u ppm: timeouts and guest clocks may be off by that much\n",
			(unsigned long long)(res->khz / 1000),
			(unsigned long long)(res->khz % 1000), wins,
			(unsigned long long)ms, res->fb_windows, res->fb_total,
			names, res->fb_spread_ppm);
	else
		pr_warn("time: TSC %llu.%03llu MHz, NOT a consensus: no %s ms window had tight brackets in %llu ms; the best-supported estimate is the tightest one, on the %s, error bound %u ppm: timeouts and guest clocks may be off by that much\n",
			(unsigned long long)(res->khz / 1000),
			(unsigned long long)(res->khz % 1000), wins,
			(unsigned long long)ms, names, res->fb_err_ppm);
}

void tsc_calibrate(const struct acpi_info *a)
{
	const struct tsc_cal_cfg *c = &tsc_cal_default;
	struct refclock refs[3];
	struct tsc_cal_result res;
	char line[384], wins[24];
	u32 n = 0;
	u64 ms;
	int rc;

	/* Best first: on disagreement the earlier reference wins. The PIT
	 * is last: it is the one legacy-free firmware gates off. */
	if (refclock_hpet_start(&refs[n], a->timers.hpet_addr))
		n++;
	if (refclock_pm_start(&refs[n], a->timers.pm_tmr_port,
			      a->timers.pm_tmr_32))
		n++;
	if (refclock_pit_start(&refs[n]))
		n++;
	rc = tsc_cal_run(refs, n, c, &res);
	for (u32 i = 0; i < n; i++)
		if (refs[i].stop)
			refs[i].stop(&refs[i]);
	ref_line(line, sizeof(line), &res);
	if (rc) {
		pr_err("time: no reference clock gave a TSC rate (%u budgets added): %s\n",
		       res.extended, line);
		if (!g_features.hv_tsc_khz)
			panic("time: the TSC rate cannot be measured, and minhv does not guess it");
		g_tsc_khz = g_features.hv_tsc_khz;
		pr_warn("time: TSC %llu.%03llu MHz as CPUID 0x40000010 states it, not measured\n",
			(unsigned long long)(g_tsc_khz / 1000),
			(unsigned long long)(g_tsc_khz % 1000));
		return;
	}
	g_tsc_khz = res.khz;
	ms = res.cycles / g_tsc_khz;
	window_ms(wins, sizeof(wins), c, &res);
	if (res.fallback)
		warn_fallback(&res, ms, wins);
	else if (!res.long_khz)
		pr_info("time: TSC %llu.%03llu MHz: NOT confirmed: no %u ms window on the %s had tight brackets in time; from the %s ms windows (%llu ms in all)\n",
			(unsigned long long)(g_tsc_khz / 1000),
			(unsigned long long)(g_tsc_khz % 1000),
			res.long_us / 1000, res.long_ref, wins,
			(unsigned long long)ms);
	else
		pr_info("time: TSC %llu.%03llu MHz: %s %u ms window on the %s, %+d ppm from the %s ms windows (%llu ms in all)\n",
			(unsigned long long)(g_tsc_khz / 1000),
			(unsigned long long)(g_tsc_khz % 1000),
			res.confirmed ? "confirmed by a" : "NOT confirmed by a",
			res.long_us / 1000, res.long_ref, res.long_dev_ppm,
			wins, (unsigned long long)ms);
	pr_info("time: references: %s\n", line);
	if (retry_line(line, sizeof(line), &res))
		pr_info("time: windows thrown away: %s\n", line);
	if (res.extended)
		pr_warn("time: this CPU was too starved to end a window in its budget: %u more budgets were spent\n",
			res.extended);
}

u64 tsc_to_us(u64 cycles)
{
	return g_tsc_khz ? cycles * 1000 / g_tsc_khz : 0;
}

u64 tsc_now_us(void)
{
	return tsc_to_us(rdtsc());
}
