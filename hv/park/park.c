// SPDX-License-Identifier: GPL-2.0-only
/* hv/park/park.c - park a CPU with IBRS cleared, restore SPEC_CTRL first on wake.
 * Sequence: Linux "x86/idle: Disable IBRS when CPU is offline" and
 * intel_idle_ibrs(); waiting: SDM/APM STI (one-instruction shadow), HLT,
 * MONITOR/MWAIT. The why: docs/PARKING.md. */
#include "hv/park/internal.h"
#include "arch/errno.h"
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/msr.h"
#include "hv/features.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "hv/park/spec_ctrl.h"

struct park_cpu *g_park_cpus;
u32 g_park_ncpus;
bool g_park_mwait;
bool g_park_armed;

int park_init(bool use_mwait)
{
	u64 bytes = (u64)g_ncpus * sizeof(struct park_cpu);

	g_park_cpus = page_alloc_ptr(ALIGN_UP(bytes, PAGE_SIZE) / PAGE_SIZE);
	if (!g_park_cpus)
		return -ENOMEM;
	g_park_ncpus = g_ncpus;
	for (u32 i = 0; i < g_ncpus; i++)
		if (g_percpu[i])
			g_percpu[i]->park = &g_park_cpus[i];
	g_park_mwait = use_mwait && g_features.monitor;
	pr_info("park: parked CPUs wait with %s%s\n",
		g_park_mwait ? "STI;MWAIT on a per-CPU line" : "STI;HLT",
		use_mwait && !g_park_mwait ?
			" (park=mwait asked, but CPUID.1:ECX[3] MONITOR is absent)" :
			"");
	__atomic_store_n(&g_park_armed, true, __ATOMIC_RELEASE);
	return 0;
}

bool park_ready(void)
{
	return __atomic_load_n(&g_park_armed, __ATOMIC_ACQUIRE);
}

bool park_uses_mwait(void)
{
	return g_park_mwait;
}

static void spec_restore(struct percpu *pc, struct park_cpu *p)
{
	wrmsr(MSR_SPEC_CTRL, pc->spec_ctrl_base);
	__atomic_store_n(&p->lowered, 0, __ATOMIC_SEQ_CST);
	park_inc(&p->st.spec_writes);
}

/* IBRS and STIBP off for the wait. An NMI between the flag and the WRMSR
 * restores the base and clears the flag: then lower again, so that the
 * flag never says "base" while the MSR holds the park value. */
static void spec_lower(struct park_cpu *p)
{
	if (!g_spec_policy.park_lowers)
		return;
	do {
		__atomic_store_n(&p->lowered, 1, __ATOMIC_SEQ_CST);
		wrmsr(MSR_SPEC_CTRL, g_spec_policy.park_val);
		park_inc(&p->st.spec_writes);
	} while (!__atomic_load_n(&p->lowered, __ATOMIC_SEQ_CST));
}

void park_irq_enter(void)
{
	struct percpu *pc;
	struct park_cpu *p;

	if (!__atomic_load_n(&g_park_armed, __ATOMIC_ACQUIRE))
		return;
	pc = this_cpu();
	p = pc->park;
	if (!p || !__atomic_load_n(&p->parked, __ATOMIC_SEQ_CST))
		return;
	/* Before the dispatcher's indirect call into any handler. */
	if (__atomic_load_n(&p->lowered, __ATOMIC_SEQ_CST))
		spec_restore(pc, p);
	park_inc(&p->st.irqs);
}

void park_until(enum park_reason why, const volatile u32 *ready)
{
	struct percpu *pc = this_cpu();
	struct park_cpu *p = pc->park;
	bool irq_on = read_rflags() & RFLAGS_IF;

	irq_disable();
	p->reason = why;
	__atomic_store_n(&p->parked, 1, __ATOMIC_SEQ_CST);
	park_inc(&p->st.parks);
	for (;;) {
		if (g_park_mwait)
			cpu_monitor(&p->kick);
		if (__atomic_load_n(ready, __ATOMIC_ACQUIRE))
			break;
		spec_lower(p);
		park_inc(&p->st.sleeps);
		/* Interrupts held since CLI are taken right after STI's
		 * shadow, so a wake sent after the check above is not lost. */
		if (g_park_mwait)
			cpu_safe_mwait(0);
		else
			cpu_safe_halt();
		/* Awake: the base value goes back before anything else. An
		 * interrupt did it already in park_irq_enter(); a store to
		 * the monitored line did not. */
		if (__atomic_load_n(&p->lowered, __ATOMIC_SEQ_CST))
			spec_restore(pc, p);
		irq_disable();
	}
	__atomic_store_n(&p->parked, 0, __ATOMIC_SEQ_CST);
	p->reason = PARK_RUNNING;
	if (irq_on)
		irq_enable();
}

static void park_kick_nop(void *arg)
{
	(void)arg; /* the interrupt itself was the point */
}

int park_wake(u32 cpu)
{
	struct park_cpu *p;
	int r;

	if (cpu >= g_park_ncpus)
		return -EINVAL;
	p = &g_park_cpus[cpu];
	/* Full barrier: the caller's store to the condition is visible
	 * before we look at whether the target sleeps (it stores parked,
	 * then loads the condition). */
	__atomic_add_fetch(&p->kick, 1, __ATOMIC_SEQ_CST);
	if (g_park_mwait || cpu == ipi_this_cpu() ||
	    !__atomic_load_n(&p->parked, __ATOMIC_SEQ_CST))
		return 0;
	/* HLT needs an interrupt. The cross-call IPI carries it (hv/smp/ipi.h);
	 * park_irq_enter() makes every vector restore SPEC_CTRL first, so
	 * a dedicated VEC_IPI_WAKE sender can replace this unchanged. */
	r = ipi_call_on(cpu, park_kick_nop, NULL, false);
	return r ? r : 1;
}

int park_post(u32 cpu, ipi_fn fn, void *arg)
{
	struct park_cpu *p;
	u32 free = 0;
	int r;

	if (cpu >= g_park_ncpus)
		return -EINVAL;
	p = &g_park_cpus[cpu];
	if (!__atomic_compare_exchange_n(&p->claimed, &free, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return -EBUSY;
	p->work_fn = fn;
	p->work_arg = arg;
	__atomic_store_n(&p->posted, 1, __ATOMIC_RELEASE);
	r = park_wake(cpu);
	return r < 0 ? r : 0;
}

void park_run_one(void)
{
	struct park_cpu *p = this_cpu()->park;
	ipi_fn fn;
	void *arg;

	park_until(PARK_IDLE, &p->posted);
	fn = p->work_fn;
	arg = p->work_arg;
	__atomic_store_n(&p->posted, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&p->claimed, 0, __ATOMIC_RELEASE);
	park_inc(&p->st.work);
	fn(arg);
}

_Noreturn void park_cpu_loop(void)
{
	for (;;)
		park_run_one();
}
