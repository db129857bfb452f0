// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/time.c - the TSC rate, measured once at boot (hv/time/tsc_cal.c
 * does the measuring), and the TSC-based delays and conversions. */
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
		bool rate = r->state != REF_DEAD && r->state != REF_NOISY;

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

void tsc_calibrate(const struct acpi_info *a)
{
	const struct tsc_cal_cfg *c = &tsc_cal_default;
	struct refclock refs[3];
	struct tsc_cal_result res;
	u64 t0 = rdtsc();
	char line[384];
	u32 n = 0;
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
		pr_err("time: no reference clock gave a TSC rate: %s\n", line);
		if (!g_features.hv_tsc_khz)
			panic("time: the TSC rate cannot be measured, and minhv does not guess it");
		g_tsc_khz = g_features.hv_tsc_khz;
		pr_warn("time: TSC %llu.%03llu MHz as CPUID 0x40000010 states it, not measured\n",
			(unsigned long long)(g_tsc_khz / 1000),
			(unsigned long long)(g_tsc_khz % 1000));
		return;
	}
	g_tsc_khz = res.khz;
	pr_info("time: TSC %llu.%03llu MHz: %s %u ms window on the %s, %+d ppm from the %u ms windows (%llu ms in all)\n",
		(unsigned long long)(g_tsc_khz / 1000),
		(unsigned long long)(g_tsc_khz % 1000),
		res.confirmed ? "confirmed by a" : "NOT confirmed by a",
		c->long_us / 1000, res.long_ref, res.long_dev_ppm,
		c->window_us / 1000,
		(unsigned long long)((rdtsc() - t0) / g_tsc_khz));
	pr_info("time: references: %s\n", line);
}

u64 tsc_to_us(u64 cycles)
{
	return g_tsc_khz ? cycles * 1000 / g_tsc_khz : 0;
}

u64 tsc_now_us(void)
{
	return tsc_to_us(rdtsc());
}
