// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/stop.c - stopping a guest: the first reason wins, is printed
 * once, every vCPU is kicked (a running one out of guest mode, a blocked
 * one onto its CPU's queue) and the guest's CPUs are woken, whose loops
 * drop its vCPUs from their queues (docs/SCHED.md). */
#include "hv/guest/guest.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "hv/log.h"

void guest_stop(struct guest *g, s64 status, bool failed, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	guest_vstop(g, status, failed, fmt, ap);
	va_end(ap);
}

void guest_vstop(struct guest *g, s64 status, bool failed, const char *fmt,
		 va_list ap)
{
	guest_vstop_end(g, status, failed, GUEST_END_NONE, fmt, ap);
}

void guest_vstop_end(struct guest *g, s64 status, bool failed,
		     enum guest_end end, const char *fmt, va_list ap)
{
	if (__atomic_exchange_n(&g->stopping, 1, __ATOMIC_ACQ_REL))
		return;
	g->stop_tsc = rdtsc();
	g->exit_status = status;
	g->failed = failed;
	g->end = end;
	fmt_vsnprintf(g->stop_reason, sizeof(g->stop_reason), fmt, ap);
	if (failed)
		pr_err("guest %s stopped: %s\n", g->name, g->stop_reason);
	else
		pr_info("guest %s stopped: %s\n", g->name, g->stop_reason);
	for (u32 i = 0; i < g->nr_vcpus; i++)
		if (g->vcpus[i])
			vcpu_kick(g->vcpus[i]);
	guest_kick_cpus(g);
}

/* g->active counts its vCPUs on any CPU's queue, running included. */
void guest_wait_idle(struct guest *g)
{
	while (__atomic_load_n(&g->active, __ATOMIC_ACQUIRE))
		cpu_relax();
}
