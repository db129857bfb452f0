// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vlapic_vcpu.c - the vLAPIC wired to a foreign guest's vCPUs:
 * the APIC bus (a target on another CPU is kicked with a host IPI), HLT
 * and wait-for-SIPI waits on a parked CPU, INIT/SIPI (SDM vol 3 9.4.4,
 * 11.6.1), and the host LAPIC timer armed for the guest timer's next
 * expiry. Event injection before VMRUN is vlapic_inject.c. */
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
#include "hv/svm/svm.h"

/* The host timer never waits longer (a guest timer further out is
 * re-armed at the next exit; the watchdog ticks stay this short). */
#define HOST_TIMER_MAX_MS 10
/* HLT with IF=1 ends after at most this long even with nothing pending:
 * minhv has no PIT, whose 18.2 Hz tick wakes a halted CPU on a PC (bare
 * QEMU); kvm-unit-tests' realmode "sti inhibit" relies on it. */
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
	__atomic_store_n(&v->wake, 1, __ATOMIC_SEQ_CST);
}

/* Arm the host timer for the guest timer's expiry, or for host TSC
 * `until` when that is sooner (0: none); now is the host TSC. The caller
 * has checked that there is something to arm for. */
static void host_timer_arm_at(struct vcpu *v, u64 until, u64 now)
{
	struct vlapic *l = &v->lapic;
	u64 at, ticks, max = HOST_TIMER_MAX_MS * g_tsc_khz;

	if (!g_tsc_khz)
		return;
	/* The guest timer in host TSC. */
	at = l->timer_next ? l->timer_next - v->vmcb->control.tsc_offset :
			     until;
	if (until && until < at)
		at = until;
	if (at > now + max)
		at = now + max;
	/* Armed already for this moment or sooner, and not yet passed. */
	if (l->c.host_at && l->c.host_at <= at && l->c.host_at > now)
		return;
	/* g_apic_timer_khz: calibrated once at boot (hv/smp/apic_cal.h). */
	ticks = at > now ? (at - now) * g_apic_timer_khz / g_tsc_khz : 0;
	apic_timer_oneshot(VEC_TIMER, ticks ? (u32)ticks : 1, APIC_TIMER_DIV_1);
	l->c.host_at = at > now ? at : now + 1;
}

/* The same, reading the TSC only when there is something to arm for. */
static void host_timer_arm_until(struct vcpu *v, u64 until)
{
	if (v->lapic.timer_next || until)
		host_timer_arm_at(v, until, rdtsc());
}

void vlapic_guest_start(struct guest *g)
{
	struct vlapic_bus *bus = &g->plat.lapic_bus;

	if (!guest_has_platform(g))
		return;
	*bus = (struct vlapic_bus){ bus_at, bus_notify, g, g->nr_vcpus };
	for (u32 i = 0; i < g->nr_vcpus; i++)
		g->vcpus[i]->lapic.bus = bus;
	/* The APs wait for INIT-SIPI, as on a PC (SDM 9.4): each runs its
	 * loop on its own CPU, parked in vlapic_before_run(). */
	for (u32 i = 1; i < g->nr_vcpus; i++) {
		struct vcpu *v = g->vcpus[i];

		v->lapic.wait_sipi = true;
		if (vcpu_claim_start(v) || vcpu_launch(v))
			guest_stop(
				g, -1, true,
				"vCPU %u: its CPU is not online (vcpus= is more than the CPUs)",
				i);
	}
}

bool vlapic_before_run(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct guest *g = v->guest;

	if (!guest_has_platform(g))
		return true;
	/* The common case (the run loop tests it inline too): running, and
	 * no INIT or SIPI posted (struct vlapic's summary). */
	if (!vlapic_before_run_maybe(l))
		return true;
	for (;;) {
		int vec = vlapic_take_startup(l);

		if (vec >= 0) {
			/* SIPI (SDM 9.4.4.1): CS.sel = vector << 8, IP 0. */
			vcpu_start_real(v, (u16)(vec << 8), 0);
			vcpu_watchdog_arm(v); /* waiting is not a hang */
			return true;
		}
		if (!l->wait_sipi)
			return true;
		__atomic_store_n(&v->wake, 0, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&g->stopping, __ATOMIC_SEQ_CST))
			return false;
		if (__atomic_load_n(&l->init_pending, __ATOMIC_SEQ_CST) ||
		    __atomic_load_n(&l->sipi, __ATOMIC_SEQ_CST))
			continue;
		/* ACPI S3: vCPU 0 wakes at the RTC alarm (hv/guest/s3.c). */
		if (v->id == 0 && acpi_s3_asleep(&g->plat)) {
			u64 until;

			switch (acpi_s3_poll(v, rdtsc(), &until)) {
			case ACPI_S3_RESUMED:
				vcpu_watchdog_arm(v);
				return true;
			case ACPI_S3_STOPPED:
				return false;
			case ACPI_S3_ASLEEP:
				if (until)
					host_timer_arm_until(v, until);
				break;
			}
		}
		if (park_ready())
			park_until(PARK_VCPU_HALTED, &v->wake);
		else
			cpu_relax();
	}
}

/* hv/svm/vlapic_inject.c, at each entry: the guest timer's next expiry
 * (now: the host TSC it read, valid when a timer is armed). */
void vlapic_host_timer_rearm(struct vcpu *v, u64 now)
{
	host_timer_arm_at(v, 0, now);
}

bool vlapic_hlt(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct guest *g = v->guest;
	bool if_on = v->vmcb->save.rflags & RFLAGS_IF;
	/* No PIT: a PC's 18.2 Hz BIOS tick would end this HLT by now. */
	u64 tick = rdtsc() + HLT_TICK_MS * g_tsc_khz;

	for (;;) {
		__atomic_store_n(&v->wake, 0, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&g->stopping, __ATOMIC_SEQ_CST))
			return false;
		vlapic_sync(v);
		if (vlapic_wakeup(l, if_on) ||
		    (l->wait_sipi && (l->sipi & VLAPIC_SIPI_PENDING)))
			return true;
		if (if_on && rdtsc() >= tick)
			return true; /* resumes after HLT, nothing injected */
		host_timer_arm_until(v, if_on ? tick : 0);
		if (!park_ready()) {
			cpu_relax();
			continue;
		}
		v->stats.halt_waits++;
		park_until(PARK_VCPU_HALTED, &v->wake);
	}
}
