/* hv/guest/vcpu_watchdog.c - stop a guest that makes no progress (an endless
 * loop): the LAPIC timer forces periodic INTR exits (APM 15.13.1) and the
 * TSC tells how long the vCPU went without a "useful" exit. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/guest/vcpu_watchdog.h"

#include "arch/apic.h"
#include "arch/idt.h"
#include "hv/smp/apic_cal.h"
#include "hv/smp/time.h"

#define TICK_MS 10 /* an INTR exit at least this often */
#define CAL_US 10000 /* calibration interval, TSC-measured */
#define CAL_COUNT 0xffffffffu
#define FALLBACK_TICKS 10000000u /* 10 ms at 1 GHz (QEMU's APIC clock) */

static u64 limit_tsc;
static u32 tick_count = FALLBACK_TICKS;

/* The LAPIC timer counts the bus/crystal clock (SDM vol 3 11.5.4; 100 MHz
 * or 25 MHz on EPYC, 1 GHz in QEMU): count it down from 2^32-1, divide by
 * 1, over CAL_US of TSC with interrupts off (stopped long before it could
 * fire). Once, on the boot CPU; the TSC is calibrated by then. */
static void apic_timer_calibrate(void)
{
	u64 wait = (u64)CAL_US * g_tsc_khz / 1000, t0, t1;
	bool irq_on = read_rflags() & BIT(9); /* IF */
	u32 left;

	irq_disable();
	apic_timer_oneshot(VEC_TIMER, CAL_COUNT, APIC_TIMER_DIV_1);
	t0 = rdtsc();
	while (rdtsc() - t0 < wait)
		cpu_relax();
	left = apic_timer_remaining();
	t1 = rdtsc();
	apic_timer_stop();
	if (irq_on)
		irq_enable();
	g_apic_timer_khz = apic_khz_from(CAL_COUNT - left, t1 - t0, g_tsc_khz);
	tick_count = apic_ticks_for_ms(g_apic_timer_khz, TICK_MS);
	/* Did not count, ran out, or a rate no APIC clock has (1 MHz to
	 * 10 GHz): keep the 1 GHz assumption, loudly. */
	if (!tick_count || left == 0 || g_apic_timer_khz < 1000 ||
	    g_apic_timer_khz > 10000000) {
		tick_count = FALLBACK_TICKS;
		pr_warn("svm: watchdog: LAPIC timer did not calibrate (%u left); assuming 1 GHz\n",
			left);
		return;
	}
	pr_info("svm: watchdog: LAPIC timer %llu.%03llu MHz (vs TSC over %u us), tick %u ms = %u counts\n",
		(unsigned long long)(g_apic_timer_khz / 1000),
		(unsigned long long)(g_apic_timer_khz % 1000), CAL_US, TICK_MS,
		tick_count);
}

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
	apic_timer_calibrate();
	pr_info("svm: watchdog: a vCPU without progress for %u ms stops its guest\n",
		ms);
}

void vcpu_watchdog_arm(struct vcpu *v)
{
	if (!limit_tsc)
		return;
	v->progress_tsc = rdtsc();
	apic_timer_oneshot(VEC_TIMER, tick_count, APIC_TIMER_DIV_1);
}

void vcpu_watchdog_disarm(void)
{
	if (limit_tsc)
		apic_timer_stop();
}

bool vcpu_watchdog_check(struct vcpu *v, u64 code)
{
	u64 now;

	if (!limit_tsc)
		return true;
	now = rdtsc();
	/* A reflected exception (#AC/#DB, exit_excp.c) is not progress: an
	 * endless delivery loop must still run into the limit. */
	if (code != VMEXIT_INTR && code != VMEXIT_NMI && code != VMEXIT_PAUSE &&
	    !(code >= VMEXIT_EXCP_BASE && code < VMEXIT_EXCP_BASE + 32)) {
		v->progress_tsc = now;
		return true;
	}
	if (code == VMEXIT_INTR) /* one-shot: keep it ticking */
		apic_timer_oneshot(VEC_TIMER, tick_count, APIC_TIMER_DIV_1);
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
