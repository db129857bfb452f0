// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vlapic_vcpu.c - the vLAPIC wired to a foreign guest's vCPUs:
 * the APIC bus (a target on another CPU is kicked with a host IPI), HLT
 * and wait-for-SIPI waits on a parked CPU (each turn through
 * vcpu_wait_turn(): the limits checked, a guest whose every vCPU waits for
 * what none can send stopped), INIT/SIPI (SDM vol 3 9.4.4, 11.6.1), and
 * the host LAPIC timer armed for the guest timer's next expiry. Event
 * injection before VMRUN is vlapic_inject.c. */
#include "hv/svm/vcpu_watchdog.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/idt.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/park/park.h"
#include "hv/svm/vlapic_vcpu.h"
#include "hv/smp/apic_cal.h"
#include "hv/smp/time.h"
#include "hv/svm/exit.h"
#include "hv/svm/sched_cpu.h"
#include "hv/svm/svm.h"

/* The host timer never waits longer (a guest timer further out is
 * re-armed at the next exit; the watchdog ticks stay this short). */
#define HOST_TIMER_MAX_MS 10
/* HLT with IF=1 ends after at most this long even with nothing pending:
 * on a PC (bare QEMU) the BIOS's 18.2 Hz PIT tick wakes a halted CPU, and
 * kvm-unit-tests' realmode "sti inhibit" relies on it; minhv's PIT
 * (hv/platform/pit.c) runs only as the guest programs it. */
#define HLT_TICK_MS 55

static struct vcpu *vcpu_of(struct vlapic *l)
{
	return (struct vcpu *)((char *)l -
			       __builtin_offsetof(struct vcpu, lapic));
}

static struct vlapic *bus_at(void *ctx, u32 i)
{
	struct guest *g = ctx;

	return i < g->nr_vcpus ? &g->vcpus[i]->lapic : NULL;
}

/* A message for t: its vCPU re-checks before its next VMRUN; a running
 * one is made to exit (host IPI -> INTR exit), a parked one wakes. */
static void bus_notify(struct vlapic *t)
{
	vcpu_kick(vcpu_of(t));
}

/* The host LAPIC timer fired on v's CPU (the one timer handler, in
 * hv/svm/vcpu_watchdog.c, calls this): it was the guest timer's expiry or
 * the watchdog's tick; either way wake a halted vCPU (a running one has
 * exited already) and let vlapic_inject_pending() re-arm it. */
void vlapic_host_timer_fired(struct vcpu *v)
{
	if (!guest_has_platform(v->guest))
		return;
	v->lapic.c.host_at = 0;
	vlapic_entry_work(&v->lapic); /* poll the timers, re-arm */
	__atomic_store_n(&v->wake, 1, __ATOMIC_SEQ_CST);
}

/* Arm the host timer for the guest timer's expiry, or for host TSC
 * `until` when that is sooner (0: none); now is the host TSC. The caller
 * has checked that there is something to arm for. Never later than the
 * scheduler needs the timer on a shared CPU (end of the turn, a sleeping
 * sibling's timer: vcpu_sched_deadline()). */
static void host_timer_arm_at(struct vcpu *v, u64 until, u64 now)
{
	struct vlapic *l = &v->lapic;
	u64 at, ticks, max = HOST_TIMER_MAX_MS * g_tsc_khz;
	u64 sd = vcpu_sched_deadline(v);
	bool irq;

	if (!g_tsc_khz)
		return;
	/* The guest timer in host TSC. */
	l->tsc_offset = v->vmcb->control.tsc_offset;
	at = l->timer_next ? vlapic_timer_expiry(l) : until;
	if (until && until < at)
		at = until;
	if (sd && sd < at)
		at = sd;
	if (at > now + max)
		at = now + max;
	/* Armed already for this moment or sooner, and not yet passed. */
	if (l->c.host_at && l->c.host_at <= at && l->c.host_at > now)
		return;
	/* g_apic_timer_khz: calibrated once at boot (hv/smp/apic_cal.h). */
	ticks = at > now ? (at - now) * g_apic_timer_khz / g_tsc_khz : 0;
	/* host_at before the timer, interrupts off: a short count fires at
	 * once, and the handler's clear of host_at must come after this
	 * store. Stored after it, a stale host_at would say "armed" to the
	 * next wait, which then parked with no timer running: the lost
	 * wake-up of a `sti; hlt` loop (issue 24), which vCPUs sharing CPUs,
	 * re-arming the timer for each other, hit often. */
	irq = read_rflags() & RFLAGS_IF;
	irq_disable();
	l->c.host_at = at > now ? at : now + 1;
	apic_timer_oneshot(VEC_TIMER, ticks ? (u32)ticks : 1, APIC_TIMER_DIV_1);
	if (irq)
		irq_enable();
}

void vlapic_host_timer_arm(struct vcpu *v, u64 until)
{
	if (v->lapic.timer_next || until)
		host_timer_arm_at(v, until, rdtsc());
}

/* A level-triggered interrupt's EOI reaches the I/O APIC. */
static void bus_eoi(void *ctx, u8 vector)
{
	struct guest *g = ctx;

	ioapic_eoi(&g->plat.ioapic, vector);
}

void vlapic_guest_start(struct guest *g)
{
	struct vlapic_bus *bus = &g->plat.lapic_bus;

	if (!guest_has_platform(g))
		return;
	*bus = (struct vlapic_bus){ .at = bus_at,
				    .notify = bus_notify,
				    .ctx = g,
				    .n = g->nr_vcpus,
				    .eoi = bus_eoi };
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		g->vcpus[i]->lapic.bus = bus;
		vlapic_entry_work(&g->vcpus[i]->lapic); /* the first entry */
	}
	/* The APs wait for INIT-SIPI, as on a PC (SDM 9.4): each runs its
	 * loop on its own CPU, parked in vlapic_before_run(). */
	for (u32 i = 1; i < g->nr_vcpus; i++) {
		struct vcpu *v = g->vcpus[i];
		int r;

		v->lapic.wait_sipi = true;
		r = vcpu_claim_start(v);
		if (!r)
			r = vcpu_launch(v);
		if (r)
			guest_stop(g, -1, true,
				   "vCPU %u: cannot be placed on CPU %u (%d)",
				   i, vcpu_home_cpu(v), r);
	}
}

/* The wait-for-SIPI loop of vlapic_before_run(), ACPI S3 included: only
 * another vCPU's INIT or SIPI ends it, or for vCPU 0 in S3 the RTC alarm.
 * -1 when the guest is stopping, -2 when the vCPU blocks (another vCPU is
 * queued on this CPU: SCHED_BLOCK, back here when it runs again, at the
 * alarm at the latest; still counted as stuck meanwhile), else the SIPI
 * vector or 256 (S3 resume, or no longer waiting). */
static int wait_sipi(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct guest *g = v->guest;

	for (;;) {
		int vec = vlapic_take_startup(l);
		const char *what = "wait-for-SIPI";
		u64 until = 0;

		vlapic_entry_work(l); /* INIT reset the registers */
		if (vec >= 0)
			return vec;
		if (!l->wait_sipi)
			return 256;
		__atomic_store_n(&v->wake, 0, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&g->stopping, __ATOMIC_SEQ_CST))
			return -1;
		if (__atomic_load_n(&l->init_pending, __ATOMIC_SEQ_CST) ||
		    __atomic_load_n(&l->sipi, __ATOMIC_SEQ_CST))
			continue;
		/* ACPI S3: vCPU 0 wakes at the RTC alarm (hv/guest/s3.c). */
		if (v->id == 0 && acpi_s3_asleep(&g->plat)) {
			switch (acpi_s3_poll(v, rdtsc(), &until)) {
			case ACPI_S3_RESUMED:
				return 256;
			case ACPI_S3_STOPPED:
				return -1;
			case ACPI_S3_ASLEEP:
				what = "S3 with no wake-up";
				break;
			}
		}
		if (g->plat.pm.wake_tsc && v->id == 0)
			vcpu_wait_unstuck(v); /* the RTC alarm wakes it */
		else if (!vcpu_wait_stuck(v, what))
			return -1;
		if (vcpu_sched_should_block(v, until))
			return -2;
		if (park_ready())
			v->stats.halt_waits++;
		if (!vcpu_wait_turn(v, PARK_VCPU_HALTED, what, until))
			return -1;
	}
}

bool vlapic_before_run(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	int vec;

	if (!guest_has_platform(v->guest))
		return true;
	/* The common case (the run loop tests it inline too): running, and
	 * no INIT or SIPI posted (struct vlapic's summary). */
	if (!vlapic_before_run_maybe(l))
		return true;
	vec = wait_sipi(v);
	if (vec == -2)
		return false; /* blocked, still waiting */
	vcpu_wait_unstuck(v);
	if (vec < 0)
		return false;
	/* SIPI (SDM 9.4.4.1): CS.sel = vector << 8, IP 0. */
	if (vec < 256)
		vcpu_start_real(v, (u16)(vec << 8), 0);
	vcpu_watchdog_arm(v); /* waiting is not a hang */
	return true;
}

/* hv/svm/vlapic_inject.c, at each entry: the guest timer's next expiry
 * (now: the host TSC it read, valid when a timer is armed). */
void vlapic_host_timer_rearm(struct vcpu *v, u64 now)
{
	/* vCPU 0 also keeps the platform's time (vlapic_platform_tick()). */
	host_timer_arm_at(v, v->id ? 0 : v->guest->plat.poll_at, now);
}

void vlapic_platform_tick(struct vcpu *v, u64 now, bool idle)
{
	u64 at = v->guest->plat.poll_at;

	if (!guest_has_platform(v->guest))
		return;
	if (platform_thre_owed(&v->guest->plat, v->id))
		platform_thre_tick(v, idle);
	if (v->id || !at || now < at)
		return;
	platform_poll(v, now);
}

/* The earliest host TSC something of v's own ends its HLT at: its vLAPIC
 * timer, or until (the HLT tick). */
static u64 hlt_wake_at(struct vcpu *v, u64 until)
{
	struct vlapic *l = &v->lapic;
	u64 t;

	l->tsc_offset = v->vmcb->control.tsc_offset;
	t = l->timer_next ? vlapic_timer_expiry(l) : 0;
	return t && (!until || t < until) ? t : until;
}

bool vlapic_hlt(struct vcpu *v)
{
	/* A PC's 18.2 Hz BIOS tick would end this HLT by now. */
	v->hlt_until = rdtsc() + HLT_TICK_MS * g_tsc_khz;
	return vlapic_hlt_resume(v);
}

bool vlapic_hlt_resume(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct guest *g = v->guest;
	bool if_on = v->vmcb->save.rflags & RFLAGS_IF, ok = true;
	u64 tick = v->hlt_until;

	v->hlt_wait = false;
	for (;;) {
		u64 until = if_on ? tick : 0, poll;

		__atomic_store_n(&v->wake, 0, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&g->stopping, __ATOMIC_SEQ_CST)) {
			ok = false;
			break;
		}
		vlapic_sync(v);
		/* The devices (vCPU 0), an owed THRE (the writer, idle). */
		vlapic_platform_tick(v, rdtsc(), true);
		if (vlapic_wakeup(l, if_on) ||
		    (l->wait_sipi && (l->sipi & VLAPIC_SIPI_PENDING)))
			break;
		if (if_on && rdtsc() >= tick)
			break; /* resumes after HLT, nothing injected */
		/* Interrupts off: only another vCPU's NMI or INIT wakes it. */
		if (!if_on && !vcpu_wait_stuck(v, "HLT with interrupts off")) {
			ok = false;
			break;
		}
		/* vCPU 0 runs the devices' time: wake for their next poll. */
		poll = v->id ? 0 : g->plat.poll_at;
		if (poll && (!until || poll < until))
			until = poll;
		/* Another vCPU queued here: block, go on when run again (still
		 * counted as stuck meanwhile when interrupts are off). */
		if (vcpu_sched_should_block(v, hlt_wake_at(v, until))) {
			v->hlt_wait = true;
			return false;
		}
		if (park_ready())
			v->stats.halt_waits++;
		if (!vcpu_wait_turn(v, PARK_VCPU_HALTED,
				    if_on ? "HLT" : "HLT with interrupts off",
				    until)) {
			ok = false;
			break;
		}
	}
	vcpu_wait_unstuck(v);
	return ok;
}
