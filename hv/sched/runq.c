// SPDX-License-Identifier: GPL-2.0-only
/* hv/sched/runq.c - the run queue and its decisions (hv/sched/runq.h):
 * FIFO round robin with a time slice per turn, sleepers with an optional
 * timer, and the PAUSE-exit yield choice after KVM's kvm_vcpu_on_spin()
 * (virt/kvm/kvm_main.c: a preempted, "ready" vCPU of the same VM that is
 * not itself in a spin loop, or is eligible again by dy_eligible's
 * alternation, and was preempted in kernel mode when the spinner is in
 * kernel mode). docs/SCHED.md. */
#include "hv/sched/runq.h"

void runq_init(struct runq *rq, u32 cpu)
{
	*rq = (struct runq){ .cpu = cpu };
}

static void list_push(struct se_list *l, struct sched_entity *se, bool head)
{
	se->prev = se->next = NULL;
	if (!l->head) {
		l->head = l->tail = se;
	} else if (head) {
		se->next = l->head;
		l->head->prev = se;
		l->head = se;
	} else {
		se->prev = l->tail;
		l->tail->next = se;
		l->tail = se;
	}
	l->n++;
}

static void list_del(struct se_list *l, struct sched_entity *se)
{
	if (se->prev)
		se->prev->next = se->next;
	else
		l->head = se->next;
	if (se->next)
		se->next->prev = se->prev;
	else
		l->tail = se->prev;
	se->prev = se->next = NULL;
	l->n--;
}

static void recompute_next_wake(struct runq *rq)
{
	u64 at = 0;

	for (struct sched_entity *s = rq->sleepers.head; s; s = s->next)
		if (s->wake_at && (!at || s->wake_at < at))
			at = s->wake_at;
	rq->next_wake = at;
}

static void enqueue(struct runq *rq, struct sched_entity *se, bool head,
		    u64 now)
{
	se->state = SE_QUEUED;
	se->cpu = rq->cpu;
	se->since = now;
	list_push(&rq->queue, se, head);
}

void runq_add(struct runq *rq, struct sched_entity *se, u64 now)
{
	se->spinning = false;
	se->yield_to = NULL;
	enqueue(rq, se, false, now);
	rq->nr++;
}

bool runq_wake(struct runq *rq, struct sched_entity *se, u64 now)
{
	if (se->state != SE_BLOCKED || se->cpu != rq->cpu)
		return false;
	list_del(&rq->sleepers, se);
	if (se->wake_at) {
		se->wake_at = 0;
		recompute_next_wake(rq);
	}
	se->st.wakes++;
	enqueue(rq, se, false, now);
	return true;
}

u32 runq_wake_due(struct runq *rq, u64 now)
{
	struct sched_entity *s = rq->sleepers.head, *n;
	u32 woken = 0;

	if (!rq->next_wake || rq->next_wake > now)
		return 0;
	for (; s; s = n) {
		n = s->next;
		if (s->wake_at && s->wake_at <= now) {
			list_del(&rq->sleepers, s);
			s->wake_at = 0;
			s->st.wakes++;
			enqueue(rq, s, false, now);
			woken++;
		}
	}
	recompute_next_wake(rq);
	return woken;
}

bool runq_wake_needs_kick(const struct runq *rq)
{
	return !rq->curr || rq->queue.n == 1;
}

void runq_put_prev(struct runq *rq, struct sched_entity *se, u64 now)
{
	struct sched_entity *t = se->yield_to;

	se->st.run_tsc += now - se->since;
	se->since = now;
	se->last_cpu = rq->cpu;
	se->yield_to = NULL;
	if (rq->curr == se)
		rq->curr = NULL;
	/* A target it pulled from another CPU is queued here, first, however
	 * se itself leaves; a local one that another CPU took meanwhile (also
	 * SE_MOVING) is that CPU's. */
	if (t && se->yield_pulled) {
		enqueue(rq, t, true, now);
		rq->nr++;
	}
	se->yield_pulled = false;
	switch (se->why) {
	case SCHED_PREEMPT:
		se->st.preempts++;
		enqueue(rq, se, false, now);
		break;
	case SCHED_YIELD:
		se->st.yields++;
		se->spinning = true;
		se->dy_eligible = false;
		enqueue(rq, se, false, now);
		/* The target runs next, in what is left of this turn. */
		if (t && t->state == SE_QUEUED && t->cpu == rq->cpu)
			rq->next = t;
		break;
	case SCHED_BLOCK:
		se->st.blocks++;
		se->state = SE_BLOCKED;
		se->cpu = rq->cpu;
		list_push(&rq->sleepers, se, false);
		if (se->wake_at &&
		    (!rq->next_wake || se->wake_at < rq->next_wake))
			rq->next_wake = se->wake_at;
		break;
	default: /* SCHED_EXIT */
		se->state = SE_NONE;
		se->last_cpu = SCHED_NO_CPU; /* a restart fills what it needs */
		rq->nr--;
		break;
	}
}

struct sched_entity *runq_pick(struct runq *rq, u64 now)
{
	struct sched_entity *se = rq->next;
	bool donated = se && se->state == SE_QUEUED && se->cpu == rq->cpu &&
		       now < rq->slice_end;

	rq->next = NULL;
	if (!donated)
		se = rq->queue.head;
	if (!se)
		return NULL;
	list_del(&rq->queue, se);
	se->state = SE_RUNNING;
	se->spinning = se->kicked = false;
	se->st.picks++;
	se->st.wait_tsc += now - se->since;
	se->since = now;
	if (donated)
		se->st.yielded_to++;
	else
		rq->slice_end = now + se->slice;
	if (se->last_cpu != SCHED_NO_CPU && se->last_cpu != rq->cpu)
		se->st.migrations++;
	rq->curr = se;
	return se;
}

unsigned runq_switch(struct runq *rq, const struct sched_entity *se)
{
	unsigned f = 0;

	/* Another vCPU ran here since (vCPUs of a guest share its ASID), or
	 * se ran on another CPU since (whatever it flushed there, this CPU
	 * may still hold): its guest's TLB entries here are not its own. */
	if (rq->last != se || rq->last_owner_id != se->owner_id ||
	    se->last_cpu != rq->cpu) {
		f |= RUNQ_SW_FLUSH;
		rq->st.switches++;
	}
	if (rq->last_owner_id && rq->last_owner_id != se->owner_id) {
		f |= RUNQ_SW_IBPB;
		rq->st.ibpb++;
	}
	rq->last = se;
	rq->last_owner_id = se->owner_id;
	return f;
}

u64 runq_deadline(const struct runq *rq)
{
	u64 wake = rq->next_wake, end = rq->slice_end;

	if (!rq->curr || !rq->queue.n)
		return wake;
	return wake && wake < end ? wake : end;
}

/* KVM's kvm_vcpu_eligible_for_directed_yield(): a vCPU that is itself in
 * a spin loop is eligible every other time it is considered. */
static bool eligible(struct sched_entity *e)
{
	bool ok = !e->spinning || e->dy_eligible;

	if (e->spinning)
		e->dy_eligible = !e->dy_eligible;
	return ok;
}

struct sched_entity *runq_yield_target(struct runq *rq,
				       const struct sched_entity *me,
				       enum sched_yield p)
{
	if (p == YIELD_ANY)
		return rq->queue.head;
	if (p != YIELD_DIRECTED)
		return NULL;
	for (struct sched_entity *e = rq->queue.head; e; e = e->next) {
		if (e == me || e->owner != me->owner)
			continue;
		/* A user-mode vCPU holds no kernel lock, but may owe a
		 * kernel-mode spinner the answer to an interrupt. */
		if (me->in_kernel && !e->in_kernel && !e->kicked)
			continue;
		if (eligible(e))
			return e;
	}
	return NULL;
}

struct sched_entity *runq_yield_sibling(const struct runq *rq,
					const struct sched_entity *me)
{
	for (struct sched_entity *e = rq->queue.head; e; e = e->next)
		if (e != me && e->owner == me->owner)
			return e;
	return NULL;
}

void runq_detach(struct runq *rq, struct sched_entity *se)
{
	list_del(&rq->queue, se);
	if (rq->next == se)
		rq->next = NULL;
	se->state = SE_MOVING;
	rq->nr--;
}

struct sched_entity *runq_steal_candidate(const struct runq *rq, u32 cpu)
{
	for (struct sched_entity *e = rq->queue.head; e; e = e->next)
		if (cpuset_has(e->allowed, cpu))
			return e;
	return NULL;
}

u32 runq_reap(struct runq *rq, bool (*dead)(const struct sched_entity *),
	      struct sched_entity **out, u32 max)
{
	struct se_list *lists[] = { &rq->queue, &rq->sleepers };
	u32 n = 0;

	for (u32 i = 0; i < 2; i++) {
		struct sched_entity *s = lists[i]->head, *nx;

		for (; s && n < max; s = nx) {
			nx = s->next;
			if (!dead(s))
				continue;
			list_del(lists[i], s);
			if (rq->next == s)
				rq->next = NULL;
			s->state = SE_NONE;
			s->wake_at = 0;
			s->last_cpu = SCHED_NO_CPU;
			rq->nr--;
			out[n++] = s;
		}
	}
	recompute_next_wake(rq);
	return n;
}
