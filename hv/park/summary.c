// SPDX-License-Identifier: GPL-2.0-only
/* hv/park/summary.c - what parking looks like from outside: per-CPU state,
 * counters, and the console summary of which CPUs are parked and why. */
#include "hv/park/internal.h"
#include "arch/cpu.h"
#include "hv/log.h"
#include "hv/park/spec_ctrl.h"

bool park_is_parked(u32 cpu)
{
	return cpu < g_park_ncpus &&
	       __atomic_load_n(&g_park_cpus[cpu].parked, __ATOMIC_ACQUIRE);
}

bool park_wait_parked(u32 cpu, u64 sleeps, u64 budget_tsc)
{
	u64 t0 = rdtsc();
	struct park_stats s;

	for (;;) {
		park_get_stats(cpu, &s);
		if (park_is_parked(cpu) && s.sleeps > sleeps)
			return true;
		if (rdtsc() - t0 > budget_tsc)
			return false;
		cpu_relax();
	}
}

u32 park_ncpus(void)
{
	return g_park_ncpus;
}

bool park_spec_lowered(u32 cpu)
{
	return cpu < g_park_ncpus && g_park_cpus[cpu].lowered;
}

enum park_reason park_reason_of(u32 cpu)
{
	if (!park_is_parked(cpu))
		return PARK_RUNNING;
	return (enum park_reason)g_park_cpus[cpu].reason;
}

const char *park_reason_name(enum park_reason r)
{
	switch (r) {
	case PARK_IDLE:
		return "no vCPU to run";
	case PARK_VCPU_OFFLINE:
		return "its vCPU is offline";
	case PARK_VCPU_HALTED:
		return "its vCPU is halted";
	default:
		return "running";
	}
}

void park_get_stats(u32 cpu, struct park_stats *s)
{
	const struct park_stats *c;

	*s = (struct park_stats){ 0 };
	if (cpu >= g_park_ncpus)
		return;
	c = &g_park_cpus[cpu].st;
	s->parks = __atomic_load_n(&c->parks, __ATOMIC_RELAXED);
	s->sleeps = __atomic_load_n(&c->sleeps, __ATOMIC_RELAXED);
	s->irqs = __atomic_load_n(&c->irqs, __ATOMIC_RELAXED);
	s->spec_writes = __atomic_load_n(&c->spec_writes, __ATOMIC_RELAXED);
	s->work = __atomic_load_n(&c->work, __ATOMIC_RELAXED);
}

void park_print_summary(void)
{
	u32 parked = 0;

	for (u32 i = 0; i < g_park_ncpus; i++)
		parked += park_is_parked(i);
	pr_info("park: %u of %u CPUs parked, waiting with %s; SPEC_CTRL: %s\n",
		parked, g_park_ncpus, park_uses_mwait() ? "MWAIT" : "HLT",
		g_spec_policy.park_why);
	for (u32 i = 0; i < g_park_ncpus; i++) {
		struct park_stats s;
		enum park_reason r = park_reason_of(i);

		park_get_stats(i, &s);
		pr_info("park: cpu%u %s%s%s%s: parks %llu, park/wake cycles %llu, interrupts while parked %llu, SPEC_CTRL writes %llu, work %llu\n",
			i, r == PARK_RUNNING ? "running" : "parked",
			r == PARK_RUNNING ? "" : " (",
			r == PARK_RUNNING ? "" : park_reason_name(r),
			r == PARK_RUNNING ? "" : ")",
			(unsigned long long)s.parks,
			(unsigned long long)s.sleeps,
			(unsigned long long)s.irqs,
			(unsigned long long)s.spec_writes,
			(unsigned long long)s.work);
	}
}
