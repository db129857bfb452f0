/* hv/guest/vcpu_watchdog.c - stop a guest that makes no progress (an endless
 * loop): the LAPIC timer forces periodic INTR exits (APM 15.13.1) and the
 * TSC tells how long the vCPU went without a "useful" exit. */
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

void vcpu_watchdog_arm(struct vcpu *v)
{
	if (!limit_tsc)
		return;
	v->progress_tsc = rdtsc();
	apic_timer_oneshot(VEC_TIMER, TICK_COUNT, APIC_TIMER_DIV_1);
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
		apic_timer_oneshot(VEC_TIMER, TICK_COUNT, APIC_TIMER_DIV_1);
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
