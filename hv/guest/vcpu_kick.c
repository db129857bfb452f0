// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/vcpu_kick.c - making a vCPU look at its state: a blocked one
 * becomes runnable on its CPU's queue (hv/sched), one that runs on another
 * CPU leaves guest mode (a cross-call IPI forces an INTR exit, APM 15.21.1)
 * or, parked there in a wait, is woken; and the bounded wait until it is
 * out (hv/smp/ipi.h, hv/park). */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "hv/guest/guest.h"
#include "hv/park/park.h"
#include "hv/sched/sched.h"
#include "hv/smp/ipi.h"
#include "hv/smp/time.h"

static void kick_fn(void *arg)
{
	(void)arg; /* the IPI itself did the work: an INTR exit */
}

/* v runs on cpu (or waits there in place): make it look. */
static void kick_cpu(u32 cpu, struct vcpu *v)
{
	/* The caller runs there and looks anyway: v is the caller's own
	 * running vCPU, a self IPI (no host interrupt: vcpu_self_event()). */
	if (cpu == ipi_this_cpu()) {
		if (v)
			vcpu_self_event(v);
		return;
	}
	/* Parked in a wait in place: the wake-up's IPI is the only one it
	 * needs (it looks at everything before its next VMRUN, and had it
	 * entered guest mode meanwhile, that IPI is an INTR exit too); a
	 * second one cost a round of the cross-call queue (~300
	 * instructions) per wake-up. Else, in guest mode: INTR. */
	if (park_ready() && park_wake(cpu) > 0)
		return;
	ipi_call_on(cpu, kick_fn, NULL, false);
}

void vcpu_kick(struct vcpu *v)
{
	u32 cpu;

	__atomic_store_n(&v->kick, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&v->wake, 1, __ATOMIC_SEQ_CST);
	if (!sched_rq(v->se.cpu))
		return; /* no queues: nothing runs */
	/* Blocked: queued now, and its CPU told if it must act. */
	if (sched_wake(&v->se, rdtsc(), &cpu) == SE_RUNNING)
		kick_cpu(cpu, v);
}

/* sched_kick_running() (hv/sched/sched.h), with the queue's lock held:
 * the running vCPU of a CPU takes its next exit's slow path (v->tick: the
 * slice timer gets armed, the turn may end), or stops waiting in place. */
void sched_kick_running(struct sched_entity *se)
{
	struct vcpu *v = (struct vcpu *)((char *)se -
					 __builtin_offsetof(struct vcpu, se));

	__atomic_store_n(&v->tick, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&v->wake, 1, __ATOMIC_SEQ_CST);
	kick_cpu(se->cpu, NULL);
}

void guest_kick_cpus(struct guest *g)
{
	struct runq *boot = sched_rq(0);

	for (int c = cpuset_next(&g->cpus, 0); c >= 0;
	     c = cpuset_next(&g->cpus, (u32)c + 1)) {
		struct runq *rq = sched_rq((u32)c);

		if (rq && rq != boot)
			sched_kick_cpu(rq);
	}
	/* Its loop runs the guests of the default run: see them stop. */
	if (boot)
		sched_kick_cpu(boot);
}

int vcpu_wait_out(struct vcpu *v)
{
	u64 t0 = rdtsc(), limit = (u64)VCPU_WAIT_OUT_MS * g_tsc_khz;

	while (__atomic_load_n(&v->in_guest, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&v->guest->stopping, __ATOMIC_ACQUIRE)) {
		/* Onlined again by a third vCPU, or never leaving: do not
		 * hold this CPU hostage. */
		if (__atomic_load_n(&v->state, __ATOMIC_SEQ_CST) !=
			    VCPU_OFFLINE ||
		    rdtsc() - t0 > limit)
			return -EBUSY;
		cpu_relax();
	}
	return 0;
}
