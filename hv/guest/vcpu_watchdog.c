/* hv/guest/vcpu_watchdog.c - the per-vCPU tick: the LAPIC timer forces an
 * INTR exit (APM 15.13.1) or interrupts the host every ~10 ms, and only on
 * that tick is the TSC read: a vCPU without a "useful" exit for watchdog_ms
 * (an endless loop) stops its guest, a guest past its run-time limit
 * (guest_time_ms) is stopped, and the console budget is refilled. Whether
 * there was a useful exit comes from the exit counters exit_dispatch()
 * keeps anyway; per exit the run loop only tests the tick flag. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "lib/fmt.h"
#include "hv/guest/vcpu_watchdog.h"
#include "hv/svm/svm.h"

#include "arch/apic.h"
#include "arch/idt.h"
#include "hv/smp/time.h"

#define TICK_COUNT 10000000u /* ~10 ms at QEMU's 1 GHz APIC clock */

static u64 limit_tsc;

/* Taken in the host: after an INTR exit, or while the host handles any
 * other exit. Either way the next vcpu_watchdog_check() sees the flag. */
static void tick_handler(struct trap_frame *f)
{
	struct svm_cpu *sc = svm_this_cpu();

	(void)f;
	if (sc && sc->vcpu)
		__atomic_store_n(&sc->vcpu->tick, 1, __ATOMIC_RELAXED);
	apic_eoi();
}

void vcpu_watchdog_init(u32 ms)
{
	limit_tsc = (u64)ms * g_tsc_khz;
	idt_register(VEC_TIMER, tick_handler);
	if (limit_tsc)
		pr_info("svm: watchdog: a vCPU without progress for %u ms stops its guest\n",
			ms);
}

static bool ticking(const struct guest *g)
{
	return limit_tsc || g->deadline_tsc || g->con_rate;
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
	if (!ticking(v->guest))
		return;
	v->progress_seen = progress(v);
	v->progress_tsc = rdtsc();
	v->tick = 0;
	apic_timer_oneshot(VEC_TIMER, TICK_COUNT, APIC_TIMER_DIV_1);
}

void vcpu_watchdog_disarm(void)
{
	apic_timer_stop();
}

/* Progress is seen at tick granularity: the limit runs from the first tick
 * that found none, at most one tick later than the last useful exit. */
bool vcpu_watchdog_tick(struct vcpu *v)
{
	struct guest *g = v->guest;
	u64 now = rdtsc(), p;

	v->tick = 0;
	apic_timer_oneshot(VEC_TIMER, TICK_COUNT, APIC_TIMER_DIV_1);
	guest_console_refill(g, now, g_tsc_khz);
	if (g->deadline_tsc && now >= g->deadline_tsc) {
		char flood[64] = "";

		if (g->con_dropped)
			fmt_snprintf(flood, sizeof(flood),
				     "; console flood: %llu bytes dropped",
				     (unsigned long long)g->con_dropped);
		guest_stop(
			g, -1, true,
			"vCPU %u: run-time limit of %u ms reached at RIP %#llx%s",
			v->id, g->time_ms,
			(unsigned long long)v->vmcb->save.rip, flood);
		return false;
	}
	p = progress(v);
	if (!limit_tsc || p != v->progress_seen) {
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
