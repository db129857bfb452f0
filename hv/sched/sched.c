// SPDX-License-Identifier: GPL-2.0-only
/* hv/sched/sched.c - the run queues of all CPUs (hv/sched/sched.h): one
 * struct runq per CPU from the page pool, locked one at a time (a vCPU
 * moving between queues is SE_MOVING in between, owned by its mover, so
 * no code path holds two queue locks). */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "hv/mm.h"
#include "hv/park/park.h"
#include "hv/percpu.h"
#include "hv/sched/internal.h"
#include "hv/sched/sched.h"

struct sched_state g_sched;

int sched_init(void)
{
	u64 bytes = (u64)g_ncpus * sizeof(struct runq);

	if (g_sched.rqs)
		return 0;
	g_sched.rqs = page_alloc_ptr(ALIGN_UP(bytes, PAGE_SIZE) / PAGE_SIZE);
	if (!g_sched.rqs)
		return -ENOMEM;
	for (u32 i = 0; i < g_ncpus; i++)
		runq_init(&g_sched.rqs[i], i);
	__atomic_store_n(&g_sched.nrq, g_ncpus, __ATOMIC_RELEASE);
	return 0;
}

struct runq *sched_rq(u32 cpu)
{
	return cpu < __atomic_load_n(&g_sched.nrq, __ATOMIC_ACQUIRE) ?
		       &g_sched.rqs[cpu] :
		       NULL;
}

struct runq *sched_lock(struct sched_entity *se)
{
	for (;;) {
		u32 cpu = __atomic_load_n(&se->cpu, __ATOMIC_ACQUIRE);
		struct runq *rq = sched_rq(cpu);

		if (rq) {
			spin_lock(&rq->lock);
			/* Still there, and not between two queues. */
			if (se->cpu == cpu && se->state != SE_MOVING)
				return rq;
			spin_unlock(&rq->lock);
		}
		cpu_relax();
	}
}

void sched_kick_cpu(struct runq *rq)
{
	__atomic_store_n(&rq->kick, 1, __ATOMIC_SEQ_CST);
	if (park_ready())
		park_wake(rq->cpu);
}

/* Tell rq's CPU that something was queued (rq locked). */
static void tell(struct runq *rq)
{
	if (rq->curr)
		sched_kick_running(rq->curr);
	else
		sched_kick_cpu(rq);
}

int sched_add(struct sched_entity *se, u32 cpu, u64 now, bool *start)
{
	struct runq *rq = sched_rq(cpu);
	bool busy;

	*start = false;
	if (!rq)
		return -EINVAL;
	spin_lock(&rq->lock);
	if (!rq->loop) {
		/* The boot CPU runs its loop only inside the default run;
		 * an AP's is started as posted work. */
		if (cpu == 0) {
			spin_unlock(&rq->lock);
			return -EBUSY;
		}
		rq->loop = true;
		*start = true;
	}
	se->cpu = cpu;
	runq_add(rq, se, now);
	if (!*start && runq_wake_needs_kick(rq))
		tell(rq);
	busy = rq->curr && rq->queue.n > 1;
	spin_unlock(&rq->lock);
	if (busy)
		sched_kick_idle_for(se, cpu);
	return 0;
}

enum se_state sched_wake(struct sched_entity *se, u64 now, u32 *cpu)
{
	struct runq *rq = sched_lock(se);
	enum se_state st = se->state;
	bool busy = false;

	*cpu = rq->cpu;
	if (st != SE_RUNNING)
		se->kicked = true; /* a directed yield's target (runq.h) */
	if (st == SE_BLOCKED && runq_wake(rq, se, now)) {
		if (runq_wake_needs_kick(rq))
			tell(rq);
		busy = rq->curr && rq->queue.n > 1;
	}
	sched_unlock(rq);
	if (busy)
		sched_kick_idle_for(se, rq->cpu);
	return st;
}

/* Lock-free hint: rq's loop waits with nothing to run. */
static bool idle(const struct runq *rq)
{
	return __atomic_load_n(&rq->loop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&rq->curr, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&rq->queue.n, __ATOMIC_ACQUIRE);
}

void sched_kick_idle_for(const struct sched_entity *se, u32 busy)
{
	for (int c = cpuset_next(se->allowed, 0); c >= 0;
	     c = cpuset_next(se->allowed, (u32)c + 1)) {
		struct runq *rq = sched_rq((u32)c);

		if ((u32)c != busy && rq && idle(rq)) {
			sched_kick_cpu(rq);
			return;
		}
	}
}

struct sched_entity *sched_steal(u32 cpu)
{
	struct runq *best = NULL;
	struct sched_entity *se = NULL;
	u32 most = 0;

	for (u32 c = 0; c < g_sched.nrq; c++) {
		u32 n = __atomic_load_n(&g_sched.rqs[c].queue.n,
					__ATOMIC_ACQUIRE);

		if (c != cpu && n > most && g_sched.rqs[c].curr) {
			most = n;
			best = &g_sched.rqs[c];
		}
	}
	if (!best)
		return NULL;
	spin_lock(&best->lock);
	se = runq_steal_candidate(best, cpu);
	if (se) {
		runq_detach(best, se);
		best->st.steals++;
	}
	spin_unlock(&best->lock);
	return se;
}

struct sched_entity *sched_pull_directed(const struct sched_entity *me, u32 cpu)
{
	for (int c = cpuset_next(me->allowed, 0); c >= 0;
	     c = cpuset_next(me->allowed, (u32)c + 1)) {
		struct runq *rq = sched_rq((u32)c);
		struct sched_entity *t;

		if ((u32)c == cpu || !rq ||
		    !__atomic_load_n(&rq->queue.n, __ATOMIC_ACQUIRE))
			continue;
		spin_lock(&rq->lock);
		t = runq_yield_target(rq, me, YIELD_DIRECTED);
		if (t)
			runq_detach(rq, t);
		spin_unlock(&rq->lock);
		if (t)
			return t;
	}
	return NULL;
}

/* One look at rq's queue, locked: p's target there (or, with sibling,
 * any sibling of me), or NULL. */
static struct sched_entity *look(struct runq *rq, const struct sched_entity *me,
				 enum sched_yield p, bool sibling)
{
	struct sched_entity *t = NULL;

	if (__atomic_load_n(&rq->queue.n, __ATOMIC_ACQUIRE)) {
		spin_lock(&rq->lock);
		t = sibling ? runq_yield_sibling(rq, me) :
			      runq_yield_target(rq, me, p);
		spin_unlock(&rq->lock);
	}
	return t;
}

struct sched_entity *sched_yield_choose(struct sched_entity *me,
					enum sched_yield p, unsigned flags,
					unsigned *how)
{
	struct runq *rq = sched_rq(me->cpu);
	struct sched_entity *t;

	*how = SCHED_YT_HERE;
	if (p == YIELD_NONE || !rq)
		return NULL;
	t = look(rq, me, p, false);
	if (t || p != YIELD_DIRECTED)
		return t;
	t = flags & SCHED_YC_PULL ? sched_pull_directed(me, rq->cpu) : NULL;
	if (t) {
		*how = SCHED_YT_PULLED;
		return t;
	}
	/* Nobody KVM would pick anywhere: a sibling waiting for this CPU
	 * still beats spinning the turn out. */
	*how = SCHED_YT_SIBLING;
	return flags & SCHED_YC_SIBLING ? look(rq, me, p, true) : NULL;
}

bool sched_queued(u32 cpu)
{
	struct runq *rq = sched_rq(cpu);

	return rq && __atomic_load_n(&rq->queue.n, __ATOMIC_ACQUIRE);
}
