// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vcpu_watchdog.c - the per-vCPU tick: the LAPIC timer forces an
 * INTR exit (APM 15.13.1) or interrupts the host every ~10 ms, and only on
 * that tick is the TSC read: a vCPU without a "useful" exit for watchdog_ms
 * (an endless loop) stops its guest, a guest past its run-time limit
 * (guest_time_ms) is stopped, and the console budget is refilled. Whether
 * there was a useful exit comes from the exit counters exit_dispatch_fast()
 * keeps anyway; per exit the run loop only tests the tick flag. A vCPU
 * that waits in the host (HLT, wait-for-SIPI, S3, offline) runs the same
 * checks in vcpu_wait_turn(). On a CPU that vCPUs share, the same timer
 * ends a vCPU's turn and wakes sleeping vCPUs (hv/svm/sched_cpu.c): it
 * fires by the scheduler's deadline too. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/park/park.h"
#include "hv/log.h"
#include "hv/ras/ras.h"
#include "lib/fmt.h"
#include "hv/svm/vcpu_watchdog.h"
#include "hv/svm/svm.h"

#include "arch/apic.h"
#include "arch/cr.h"
#include "arch/idt.h"
#include "hv/sched/runq.h"
#include "hv/smp/ipi.h"
#include "hv/svm/sched_cpu.h"
#include "hv/svm/vlapic_vcpu.h"
#include "hv/smp/apic_cal.h"
#include "hv/smp/time.h"

#define TICK_MS 10 /* an INTR exit at least this often */
/* 0.25 ms at QEMU's 1 GHz, 2.5 ms at 100 MHz, 10 ms at 25 MHz (5 M counts
 * took 5 ms and 200 ms): under -icount one poll of the IRR below is ~1000
 * TSC cycles, 0.4 % of the window, plenty for a 10 ms tick and for arming
 * the host timer of a vLAPIC deadline (checked against the TSC anyway).
 * Its interrupt stays in the IRR while interrupts are off: between runs
 * they go on, so that the next run's shows again. */
#define CAL_COUNT 250000u
#define CAL_TRIES 5
#define CAL_LIMIT_MS 500 /* no interrupt by then: not calibrated */
#define FALLBACK_TICKS 10000000u /* 10 ms at 1 GHz (QEMU's APIC clock) */

static u64 limit_tsc;
static u32 tick_count = FALLBACK_TICKS;
/* A tick the host may not have seen: the next look, ~100 us later. */
static u32 recheck_count = FALLBACK_TICKS / (TICK_MS * 10);
_Static_assert(FALLBACK_TICKS / (TICK_MS * 10) >= APIC_RECHECK_MIN,
	       "the fallback re-look is above the floor");

/* The LAPIC timer counts the bus/crystal clock (SDM vol 3 11.5.4; 100 MHz
 * or 25 MHz on EPYC, 1 GHz in QEMU): let it count CAL_COUNT ticks, divide
 * by 1, with interrupts off, and time with the TSC how long until its
 * interrupt is pending in the IRR. Not by reading the current count: QEMU
 * under -icount aborts ("Bad icount read") on an x2APIC RDMSR of it. Once,
 * on the boot CPU, after tick_handler is registered (the pending interrupt
 * is taken, and EOId, when interrupts are on again); the TSC is calibrated
 * by then. */
static void apic_timer_calibrate(void)
{
	u64 limit = (u64)CAL_LIMIT_MS * g_tsc_khz, t0, dt = ~0ULL, d;
	bool irq_on = read_rflags() & RFLAGS_IF;
	bool fired = false;

	/* The fastest of CAL_TRIES runs: a vCPU descheduled, or a QEMU
	 * that delivers the timer late, only ever makes a run longer (under
	 * a loaded host one run read 5.9 MHz for QEMU's 1 GHz). Between runs
	 * interrupts go on, so the pending one is taken (and EOId) and the
	 * next run's shows in the IRR again. */
	for (u32 i = 0; i < CAL_TRIES; i++) {
		bool f;

		irq_disable();
		/* From before the write: a run can then only look longer
		 * than it was, never shorter, and the fastest is the best. */
		t0 = rdtsc();
		apic_timer_oneshot(VEC_TIMER, CAL_COUNT, APIC_TIMER_DIV_1);
		while (!(f = apic_irr_pending(VEC_TIMER)) &&
		       rdtsc() - t0 < limit)
			cpu_relax();
		d = rdtsc() - t0;
		apic_timer_stop();
		irq_enable(); /* the handler takes it and EOIs */
		for (u32 k = 0; k < 1000 && apic_irr_pending(VEC_TIMER); k++)
			cpu_relax();
		irq_disable();
		if (!f)
			break; /* no interrupt in CAL_LIMIT_MS: once is enough */
		fired = true;
		if (d < dt)
			dt = d;
	}
	if (irq_on)
		irq_enable();
	g_apic_timer_khz = fired ? apic_khz_from(CAL_COUNT, dt, g_tsc_khz) : 0;
	tick_count = apic_ticks_for_ms(g_apic_timer_khz, TICK_MS);
	/* Never fired, or a rate no APIC clock has (1 MHz to 10 GHz): keep
	 * the 1 GHz assumption, loudly. */
	if (!tick_count || g_apic_timer_khz < 1000 ||
	    g_apic_timer_khz > 10000000) {
		tick_count = FALLBACK_TICKS;
		recheck_count = apic_recheck_count(FALLBACK_TICKS);
		pr_warn("svm: watchdog: LAPIC timer did not calibrate (%s); assuming 1 GHz\n",
			fired ? "implausible rate" : "no interrupt");
		return;
	}
	pr_info("svm: watchdog: LAPIC timer %llu.%03llu MHz (%u counts in %llu TSC cycles, the fastest of %u runs), tick %u ms = %u counts\n",
		(unsigned long long)(g_apic_timer_khz / 1000),
		(unsigned long long)(g_apic_timer_khz % 1000), CAL_COUNT,
		(unsigned long long)dt, CAL_TRIES, TICK_MS, tick_count);
	recheck_count = apic_recheck_count(tick_count);
}

/* Taken in the host: after an INTR exit, or while the host handles any
 * other exit, or while the vCPU waits (vcpu_wait_turn()). Either way the
 * next vcpu_watchdog_check() sees the flag (and when it may not, the timer
 * asks again soon: below), and a wait wakes. */
static void tick_handler(struct trap_frame *f)
{
	struct svm_cpu *sc = svm_this_cpu();

	(void)f;
	if (sc && sc->vcpu) {
		__atomic_store_n(&sc->vcpu->tick, 1, __ATOMIC_RELAXED);
		/* The same timer drives a foreign guest's vLAPIC timer. */
		vlapic_host_timer_fired(sc->vcpu);
		__atomic_store_n(&sc->vcpu->wake, 1, __ATOMIC_SEQ_CST);
		/* Not an INTR exit (those are taken at the VMRUN stub's STGI
		 * with in_guest still 1): the host ran. The run loop looks at
		 * the flag with interrupts off before each VMRUN, but a path
		 * that looked before (a wait's, as the vCPU's turn began)
		 * would carry it unseen into a vCPU that never exits: exit
		 * again soon. Not while the CPU is parked in a wait, which the
		 * flag ends anyway. */
		if (!__atomic_load_n(&sc->vcpu->in_guest, __ATOMIC_RELAXED) &&
		    !park_is_parked(ipi_this_cpu()))
			apic_timer_oneshot(VEC_TIMER, recheck_count,
					   APIC_TIMER_DIV_1);
	}
	/* The loop of an idle CPU waits for this (sleepers' timers). */
	if (sc && sc->rq)
		__atomic_store_n(&sc->rq->kick, 1, __ATOMIC_SEQ_CST);
	apic_eoi();
}

void cpu_timer_arm_at(u64 at, u64 now)
{
	u64 khz = g_apic_timer_khz >= 1000 && g_apic_timer_khz <= 10000000 ?
			  g_apic_timer_khz :
			  1000000; /* the uncalibrated 1 GHz assumption */
	u64 ticks = at > now && g_tsc_khz ? (at - now) * khz / g_tsc_khz : 0;

	if (ticks > 0xffffffffu)
		ticks = 0xffffffffu;

	apic_timer_oneshot(VEC_TIMER, ticks ? (u32)ticks : 1, APIC_TIMER_DIV_1);
}

void vcpu_watchdog_init(u32 ms)
{
	limit_tsc = (u64)ms * g_tsc_khz;
	idt_register(VEC_TIMER, tick_handler);
	apic_timer_calibrate();
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

/* The next tick, or the scheduler's deadline when that is sooner, on the
 * one host timer; the tick alone (the calibrated count, no TSC arithmetic)
 * when the CPU is not shared. It replaces what the vLAPIC may have started
 * there for a foreign guest's timer (a wait's, which the tick that ended it
 * leaves here), so that start is gone: the next entry starts it again
 * (vlapic_inject_pending()), never later than the scheduler's deadline,
 * instead of taking a stale host_at for "armed", which held the guest's
 * timer back to this tick. */
static void timer_arm(struct vcpu *v, u64 now)
{
	u64 sd = vcpu_sched_deadline(v), at;

	if (!sd) {
		apic_timer_oneshot(VEC_TIMER, tick_count, APIC_TIMER_DIV_1);
	} else {
		at = ticking(v->guest) ? now + (u64)TICK_MS * g_tsc_khz : 0;
		cpu_timer_arm_at(at && at < sd ? at : sd, now);
	}
	v->lapic.c.host_at = 0;
	/* Entry work runs only when asked for (vlapic_entry_work()). */
	if (guest_has_platform(v->guest))
		vlapic_entry_work(&v->lapic);
}

/* Before the queue is looked at (timer_arm(), vcpu_sched_tick()): a full
 * barrier (XCHG), so the loads that follow cannot pass the clear. A kick
 * queued before them is seen there; one whose flag store would land
 * before a plain, still-buffered clear would be wiped out by it, lost with
 * its IPI (an INTR exit that finds no flag). */
static void tick_clear(struct vcpu *v)
{
	__atomic_store_n(&v->tick, 0, __ATOMIC_SEQ_CST);
}

void vcpu_watchdog_arm(struct vcpu *v)
{
	u64 now;

	if (!ticking(v->guest) && !vcpu_sched_deadline(v))
		return;
	now = rdtsc();
	v->progress_seen = progress(v);
	/* What it ran without progress before it was preempted counts;
	 * its time in the queue does not. */
	v->progress_tsc = now - v->wd_carry;
	v->wd_carry = 0;
	v->wd_tick = now; /* its time in the queue is no spinning */
	tick_clear(v);
	timer_arm(v, now);
}

void vcpu_watchdog_leave(struct vcpu *v)
{
	apic_timer_stop();
	v->wd_carry = 0;
	if (ticking(v->guest) &&
	    (v->se.why == SCHED_PREEMPT || v->se.why == SCHED_YIELD))
		v->wd_carry = rdtsc() - v->progress_tsc;
}

/* A vCPU on a shared CPU that spun on PAUSE since its last tick while a
 * sibling did anything else (a tick of that one found no PAUSE exit) is
 * waiting for a sibling, as a spinner that yields waits in the queue (its
 * time there does not count): a lock holder preempted by it, under
 * pause_yield=none, or one with no directed target. That interval is
 * taken off its run time without progress. A guest whose vCPUs all spin
 * (a deadlock) gets no such credit, and a loop without PAUSE none. */
static void spin_wait(struct vcpu *v, u64 now)
{
	struct guest *g = v->guest;
	u64 n = v->stats.count[EK_PAUSE], last = v->wd_tick;
	u64 w = __atomic_load_n(&g->wd_work, __ATOMIC_RELAXED);
	bool spun = n != v->wd_pauses, others = w != v->wd_work_seen;

	v->wd_pauses = n;
	v->wd_tick = now;
	if (!spun)
		w = __atomic_add_fetch(&g->wd_work, 1, __ATOMIC_RELAXED);
	v->wd_work_seen = w;
	if (spun && others && vcpu_sched_deadline(v) &&
	    now - last < now - v->progress_tsc)
		v->progress_tsc += now - last;
}

/* The watchdog proper: limits and progress; false when g was stopped.
 * Progress is seen at tick granularity: the limit runs from the first tick
 * that found none, at most one tick later than the last useful exit. */
static bool watchdog_tick(struct vcpu *v, u64 now)
{
	struct guest *g = v->guest;
	u64 p;

	guest_console_refill(g, now, g_tsc_khz);
	vlapic_platform_tick(v, now, false); /* the platform's time */
	if (!guest_time_check(v, now, NULL))
		return false;
	p = progress(v);
	spin_wait(v, now);
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

bool vcpu_watchdog_tick(struct vcpu *v)
{
	u64 now = rdtsc();

	tick_clear(v);
	timer_arm(v, now);
	ras_tick(); /* the boot CPU: queued NMI/#MC lines */
	if (!watchdog_tick(v, now))
		return false;
	/* A shared CPU: the turn may be over, sleepers due (sched_cpu.c);
	 * the queue that changed has another deadline. */
	if (vcpu_sched_deadline(v)) {
		if (vcpu_sched_tick(v, now))
			return false;
		timer_arm(v, now);
	}
	vcpu_pause_follow(v); /* the queue may have changed */
	return true;
}

/* Cold: a wait is about to park the CPU; size over speed. */
__attribute__((cold)) bool vcpu_wait_turn(struct vcpu *v, enum park_reason why,
					  const char *what, u64 until)
{
	struct guest *g = v->guest;
	u64 now, sd;

	/* The host timer for the nearest of until, the guest's own timer
	 * (foreign guests) and, when a limit is on, the next tick: a wait
	 * checks the limits as often as the run loop does. */
	if (ticking(g)) {
		u64 t = rdtsc() + (u64)TICK_MS * g_tsc_khz;

		if (!until || t < until)
			until = t;
	}
	/* A shared CPU: never later than the scheduler's deadline (the
	 * sleepers' timers; the vLAPIC's arming takes it into account). */
	sd = vcpu_sched_deadline(v);
	if (guest_has_platform(g))
		vlapic_host_timer_arm(v, until);
	else if (sd)
		cpu_timer_arm_at(until && until < sd ? until : sd, rdtsc());
	else if (until)
		apic_timer_oneshot(VEC_TIMER, tick_count, APIC_TIMER_DIV_1);
	if (park_ready())
		park_until(why, &v->wake);
	else
		cpu_relax();
	if (__atomic_load_n(&g->stopping, __ATOMIC_ACQUIRE))
		return false;
	if (!__atomic_load_n(&v->tick, __ATOMIC_RELAXED))
		return true;
	/* The run loop's tick, for a vCPU that waits: the console budget,
	 * the run-time limit; time spent waiting is not a hang. The flag
	 * stays set: back in the run loop, vcpu_watchdog_check() re-arms the
	 * tick this wait's timer replaced. */
	now = rdtsc();
	guest_console_refill(g, now, g_tsc_khz);
	v->progress_seen = progress(v);
	v->progress_tsc = now;
	return guest_time_check(v, now, what);
}
