// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vlapic_vcpu.c - the vLAPIC wired to a foreign guest's vCPUs:
 * the APIC bus (a target on another CPU is kicked with a host IPI), event
 * injection before VMRUN (APM vol 2 15.20 EVENTINJ, 15.21.4 V_IRQ and the
 * VINTR intercept), NMI blocking until IRET, HLT and wait-for-SIPI waits
 * on a parked CPU, INIT/SIPI (SDM vol 3 9.4.4, 11.6.1), and the host LAPIC
 * timer armed for the guest timer's next expiry. */
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
	at = l->timer_next ? l->timer_next - v->vmcb->control.tsc_offset :
			     until;
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
	 * store. Stored after it, a stale host_at says "armed" to the next
	 * wait, which then parks with no timer running: CPUs halted with
	 * their guest timers expired (issue 24's lost wake-up, which vCPUs
	 * sharing CPUs, re-arming the timer for each other, hit often). */
	irq = read_rflags() & RFLAGS_IF;
	irq_disable();
	l->c.host_at = at > now ? at : now + 1;
	apic_timer_oneshot(VEC_TIMER, ticks ? (u32)ticks : 1, APIC_TIMER_DIV_1);
	if (irq)
		irq_enable();
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

bool vlapic_before_run(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct guest *g = v->guest;
	u64 until;

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
		until = 0;
		/* ACPI S3: vCPU 0 wakes at the RTC alarm (hv/guest/s3.c). */
		if (v->id == 0 && acpi_s3_asleep(&g->plat)) {
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
		/* Another vCPU queued here: give it the CPU meanwhile (back
		 * here when it runs again, at the alarm at the latest). */
		if (vcpu_sched_should_block(v, until))
			return false;
		if (park_ready())
			park_until(PARK_VCPU_HALTED, &v->wake);
		else
			cpu_relax();
	}
}

/* V_INTR_* as an interrupt window leaves them (cleared at each entry). */
#define V_WINDOW (V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf) | V_INTR_VECTOR(0xff))

/* Every entry of a foreign guest, so the common case (no timer armed,
 * nothing posted, no window open, TPR unchanged) reads no TSC, scans no
 * IRR and leaves the VMCB clean bits as they are. The VMCB fields it
 * writes are marked dirty only when their value changes (APM vol 2
 * 15.15.3: a field written after the first VMRUN must have its clean bit
 * cleared; V_TPR and V_IRQ as the CPU wrote them back at #VMEXIT are what
 * it holds already, and exit handlers mark what they change). */
void vlapic_inject_pending(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	struct vmcb_control *c = &vm->control;
	struct vlapic *l = &v->lapic;
	const u64 v_intr = c->v_intr;
	u64 now = 0;
	unsigned ev;
	u8 vec = 0;

	if (!guest_has_platform(v->guest))
		return;
	if (c->exit_code == VMEXIT_INTR)
		l->c.host_at = 0; /* the watchdog may have re-armed it */
	vlapic_sync_tpr(v); /* CR8 -> TPR */
	/* Expired timers; the time is needed only when one is armed. */
	if (l->timer_next) {
		now = rdtsc();
		vlapic_timer_poll(l, now + c->tsc_offset);
	}
	/* Last entry's interrupt window, if one was opened. */
	if (v_intr & V_WINDOW)
		c->v_intr &= ~V_WINDOW;
	if (vmcb_has_intercept(vm, INTERCEPT_VINTR))
		vmcb_clr_intercept(vm, INTERCEPT_VINTR);
	/* The NMI handler's IRET has retired once RIP moved on. */
	if (l->c.iret_wait && vm->save.rip != l->c.iret_rip)
		l->c.nmi_masked = l->c.iret_wait = false;
	/* A re-injected event (EXITINTINFO) or a handler's goes first.
	 * Nothing posted: nothing to inject, no window to open. */
	ev = 0;
	if (vlapic_event_maybe(l))
		ev = vlapic_next_event(l, vm->save.rflags & RFLAGS_IF,
				       c->int_shadow & INT_SHADOW,
				       c->event_inj & EVENTINJ_VALID, &vec);
	if (ev & VLAPIC_INJ_NMI) {
		c->event_inj = VEC_NMI | EVENTINJ_TYPE_NMI | EVENTINJ_VALID;
		vmcb_set_intercept(vm, INTERCEPT_IRET); /* watch for IRET */
	}
	if (ev & VLAPIC_INJ_INTR)
		c->event_inj = (u64)vec | EVENTINJ_TYPE_INTR | EVENTINJ_VALID;
	if (ev & VLAPIC_INJ_WINDOW) {
		/* Exit as soon as the guest can take it (IF=1, no shadow,
		 * the injected event delivered). */
		c->v_intr |= V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf) |
			     V_INTR_VECTOR(vec);
		vmcb_set_intercept(vm, INTERCEPT_VINTR);
	}
	l->c.vtpr = (l->tpr >> 4) & 0xf;
	c->v_intr = (c->v_intr & ~V_TPR_MASK) | l->c.vtpr;
	if (c->v_intr != v_intr)
		vmcb_mark_dirty(vm, VMCB_CLEAN_TPR);
	if (l->timer_next)
		host_timer_arm_at(v, 0, now);
}

/* The earliest host TSC something of v's own ends its HLT at: its vLAPIC
 * timer, or until (the HLT tick). */
static u64 hlt_wake_at(const struct vcpu *v, u64 until)
{
	const struct vlapic *l = &v->lapic;
	u64 t = l->timer_next ? l->timer_next - v->vmcb->control.tsc_offset : 0;

	return t && (!until || t < until) ? t : until;
}

bool vlapic_hlt(struct vcpu *v)
{
	/* No PIT: a PC's 18.2 Hz BIOS tick would end this HLT by now. */
	v->hlt_until = rdtsc() + HLT_TICK_MS * g_tsc_khz;
	return vlapic_hlt_resume(v);
}

bool vlapic_hlt_resume(struct vcpu *v)
{
	struct vlapic *l = &v->lapic;
	struct guest *g = v->guest;
	bool if_on = v->vmcb->save.rflags & RFLAGS_IF;
	u64 tick = v->hlt_until;

	v->hlt_wait = false;
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
		/* Another vCPU queued here: block, go on when run again. */
		if (vcpu_sched_should_block(v,
					    hlt_wake_at(v, if_on ? tick : 0))) {
			v->hlt_wait = true;
			return false;
		}
		if (!park_ready()) {
			cpu_relax();
			continue;
		}
		v->stats.halt_waits++;
		park_until(PARK_VCPU_HALTED, &v->wake);
	}
}
