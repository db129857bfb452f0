/* hv/guest/vcpu_watchdog.c - stop a guest that makes no progress (an endless
 * loop): the LAPIC timer forces periodic INTR exits (APM 15.13.1); on each,
 * the exit counters tell whether the vCPU had a "useful" exit since the
 * last tick and the TSC how long it has gone without one. Nothing runs on
 * the other exits: the counters are the statistics exit_dispatch() keeps
 * anyway. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/guest/vcpu_watchdog.h"

#include "arch/apic.h"
#include "arch/idt.h"
#include "hv/smp/time.h"

#define TICK_COUNT 10000000u /* ~10 ms at QEMU's 1 GHz APIC clock */

static u64 limit_tsc;

static void tick_handler(struct trap_frame *f)
{
	(void)f;
	apic_eoi(); /* the INTR exit was the point; nothing else to do */
}

void vcpu_watchdog_init(u32 ms)
{
	limit_tsc = (u64)ms * g_tsc_khz;
	if (!limit_tsc)
		return;
	idt_register(VEC_TIMER, tick_handler);
	pr_info("svm: watchdog: a vCPU without progress for %u ms stops its guest\n",
		ms);
}

/* Exits that were progress: all but INTR, NMI, PAUSE and the exceptions
 * reflected into the guest (exit_excp.c): an endless #AC/#DB delivery
 * loop must still run into the limit. */
static u64 progress(const struct vcpu *v)
{
	const struct vcpu_stats *s = &v->stats;

	return s->exits - s->count[EK_INTR] - s->count[EK_NMI] -
	       s->count[EK_PAUSE] - s->reflected;
}

void vcpu_watchdog_arm(struct vcpu *v)
{
	if (!limit_tsc)
		return;
	v->progress_seen = progress(v);
	v->progress_tsc = rdtsc();
	apic_timer_oneshot(VEC_TIMER, TICK_COUNT, APIC_TIMER_DIV_1);
}

void vcpu_watchdog_disarm(void)
{
	if (limit_tsc)
		apic_timer_stop();
}

/* Progress is seen at tick granularity: the limit runs from the first tick
 * that found none, at most TICK_COUNT later than the last useful exit. */
bool vcpu_watchdog_tick(struct vcpu *v)
{
	u64 now, p;

	if (!limit_tsc)
		return true;
	apic_timer_oneshot(VEC_TIMER, TICK_COUNT, APIC_TIMER_DIV_1);
	now = rdtsc();
	p = progress(v);
	if (p != v->progress_seen) {
		v->progress_seen = p;
		v->progress_tsc = now;
		return true;
	}
	if (now - v->progress_tsc <= limit_tsc)
		return true;
	guest_stop(
		v->guest, -1, true,
		"vCPU %u: no progress for %llu ms (endless loop?) at RIP %#llx",
		v->id,
		(unsigned long long)((now - v->progress_tsc) / g_tsc_khz),
		(unsigned long long)v->vmcb->save.rip);
	return false;
}
