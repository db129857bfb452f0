// SPDX-License-Identifier: GPL-2.0-only
/* hv/ras/defer.c - log lines from NMI and #MC handlers. Such a handler may
 * have interrupted its own CPU inside console_lock(), where waiting would
 * never end and writing would break the line being written: it takes the
 * lock only if it comes free soon, and otherwise queues the line for the
 * boot CPU to print at its next tick (ras_tick()) or at the end of the run
 * (ras_flush()). */
#include "hv/ras/internal.h"
#include "hv/console.h"
#include "hv/log.h"
#include "hv/percpu.h"

#define QUEUE_LINES 32
#define LINE_LEN 192
#define TRY_SPINS (1u << 20) /* another CPU's line, at serial speed */

static char lines[QUEUE_LINES][LINE_LEN];
static u32 lens[QUEUE_LINES];
static u32 ready[QUEUE_LINES];
static u32 head; /* slots taken, by any CPU */
static u32 tail; /* slots printed, by the boot CPU */
u32 g_ras_dropped;

void ras_emit(int level, const char *fmt, ...)
{
	char buf[LINE_LEN];
	va_list ap;
	size_t n;
	u32 slot;

	va_start(ap, fmt);
	n = log_vformat(level, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!n)
		return;
	if (console_trylock(TRY_SPINS)) {
		console_write(buf, n);
		console_unlock();
		return;
	}
	slot = __atomic_fetch_add(&head, 1, __ATOMIC_RELAXED);
	if (slot >= QUEUE_LINES) {
		__atomic_add_fetch(&g_ras_dropped, 1, __ATOMIC_RELAXED);
		return;
	}
	for (size_t i = 0; i < n; i++)
		lines[slot][i] = buf[i];
	lens[slot] = (u32)n;
	__atomic_store_n(&ready[slot], 1, __ATOMIC_RELEASE);
}

/* The boot CPU is the queue's one reader; before the per-CPU areas
 * exist only the boot CPU runs. An NMI that hit CPU 0 inside the console
 * lock early in the boot waited for the run's end to be seen (a BMC's
 * diagnostic NMI, tests/boot/14-mce-nmi.t). */
void ras_tick(void)
{
	if (g_percpu && this_cpu()->cpu)
		return;
	if (__atomic_load_n(&head, __ATOMIC_RELAXED) != tail)
		ras_flush();
}

void ras_flush(void)
{
	u32 h = __atomic_load_n(&head, __ATOMIC_ACQUIRE);

	if (h > QUEUE_LINES)
		h = QUEUE_LINES;
	for (; tail < h; tail++) {
		if (!__atomic_load_n(&ready[tail], __ATOMIC_ACQUIRE))
			break; /* still being written: the next flush */
		console_lock();
		console_write(lines[tail], lens[tail]);
		console_unlock();
	}
}
