// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/console.c - guest console output (HC_CONSOLE_WRITE and COM1
 * writes): line-buffered per vCPU, each line prefixed with the guest's
 * name so lines from different guests and CPUs never interleave. */
#include "hv/console.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "lib/fmt.h"

static void line_out(struct vcpu *v)
{
	kprintf("[%s] %.*s\n", v->guest->name, (int)v->con_len, v->con);
	v->con_len = 0;
}

/* The 16550's lines: its transmitter keeps guest_console_rate itself
 * (hv/platform/uart.c holds THRE back), so nothing here is dropped. */
void guest_console_line(struct vcpu *v, const char *s, size_t n)
{
	char buf[64];
	size_t k;

	/* One line however long, under the console lock: no other CPU's
	 * text gets into it. */
	console_lock();
	k = (size_t)fmt_snprintf(buf, sizeof(buf), "[%s] ", v->guest->name);
	console_write(buf, k);
	for (size_t i = 0; i < n; i += k) {
		for (k = 0; k < sizeof(buf) && i + k < n; k++)
			buf[k] = guest_text_char(s[i + k], false);
		console_write(buf, k);
	}
	console_write("\n", 1);
	console_unlock();
}

void guest_console_flush(struct vcpu *v)
{
	if (v->con_len)
		line_out(v);
}

/* On the watchdog tick, never per byte: con_rate bytes per second of
 * guest time, at most one second's worth banked. */
void guest_console_refill(struct guest *g, u64 now, u64 tsc_khz)
{
	u64 dt, add;
	s64 b, nb;

	if (!g->con_rate || !tsc_khz)
		return;
	dt = now -
	     __atomic_exchange_n(&g->con_refill_tsc, now, __ATOMIC_ACQ_REL);
	if ((s64)dt <= 0)
		return;
	add = dt / tsc_khz * g->con_rate / 1000;
	b = __atomic_load_n(&g->con_budget, __ATOMIC_ACQUIRE);
	do {
		nb = (b < 0 ? 0 : b) + (s64)add;
		if (nb > (s64)g->con_rate)
			nb = g->con_rate;
	} while (!__atomic_compare_exchange_n(&g->con_budget, &b, nb, false,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_ACQUIRE));
}

/* How many of n bytes the budget allows (HC_CONSOLE_WRITE, and COM1 of a
 * guest without the 16550); the rest are dropped, counted and reported
 * once (the total is printed with the guest's counters and in the
 * verdict, svm.guest_run). */
static size_t console_allow(struct vcpu *v, size_t n)
{
	struct guest *g = v->guest;
	s64 left;
	size_t ok;

	if (!g->con_rate)
		return n;
	left = __atomic_sub_fetch(&g->con_budget, (s64)n, __ATOMIC_ACQ_REL);
	if (left >= 0)
		return n;
	ok = left + (s64)n > 0 ? (size_t)(left + (s64)n) : 0;
	__atomic_add_fetch(&g->con_dropped, n - ok, __ATOMIC_RELAXED);
	if (!__atomic_exchange_n(&g->con_flood_said, 1, __ATOMIC_ACQ_REL)) {
		guest_console_flush(v);
		pr_warn("guest %s: console flood: output beyond %u bytes/s dropped (guest_console_rate)\n",
			g->name, g->con_rate);
	}
	return ok;
}

void guest_console_put(struct vcpu *v, const char *s, size_t n)
{
	n = console_allow(v, n);
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n') {
			line_out(v); /* an empty line still shows up */
			continue;
		}
		if (c == '\r')
			continue;
		v->con[v->con_len++] = guest_text_char(c, false);
		if (v->con_len == VCPU_CON_LINE)
			guest_console_flush(v);
	}
}
