// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/vcpu_run.c - the run loop (Jailhouse's shape: VMRUN stub, one C
 * dispatcher, re-enter): one turn of a vCPU on a CPU, from the moment its
 * CPU's queue picked it until it leaves (hv/svm/sched_cpu.c runs the
 * queue; docs/SCHED.md), and the waits in place of the built-in guest. */
#include "arch/errno.h"
#include "hv/boot_prof.h"
#include "arch/cpu.h"
#include "arch/cpu_inline.h"
#include "arch/msr.h"
#include "hv/selftest_hook.h"
#include "hv/features.h"
#include "hv/svm/exit.h"
#include "hv/svm/exit_io.h"
#include "hv/guest/guest.h"
#include "include/minhv/hypercall_abi.h"
#include "hv/smp/ipi.h"
#include "hv/log.h"
#include "hv/park/park.h"
#include "hv/percpu.h"
#include "hv/park/spec_ctrl.h"
#include "hv/svm/svm.h"
#include "hv/vcpu/vcpu_fpu.h"
#include "hv/vcpu/vcpu_pkrs.h"
#include "hv/svm/vcpu_watchdog.h"
#include "hv/svm/sched_cpu.h"
#include "hv/smp/time.h"

/* bench=1: one #VMEXIT -> VMRUN path: t_exit is set after every exit (0
 * when the loop starts, so the first entry is not timed). The window runs
 * from just after the exit's STI to just before the next SPEC_CTRL switch
 * and VMRUN stub call (the entry handshake included); it runs inside the
 * round trips the guest's bench scenario times. */
static inline void bench_path(struct vcpu_stats *s, u64 now)
{
	u64 d;

	if (!s->t_exit)
		return;
	d = now - s->t_exit;
	s->path_n++;
	s->path_sum += d;
	if (d < s->path_min) /* ~0 until the first (vcpu_run()) */
		s->path_min = d;
	if (d > s->path_max)
		s->path_max = d;
}

static bool waiting(const struct vcpu *v)
{
	u32 st = __atomic_load_n(&v->state, __ATOMIC_SEQ_CST);

	return st == VCPU_HALTED || st == VCPU_OFFLINE;
}

/* Nothing to run here until another vCPU (HC_VCPU_ONLINE) or guest_stop()
 * changes our state: park this CPU (IBRS cleared under that policy) instead
 * of spinning. Race-free with the setter, which changes the state, sets
 * v->wake, then calls park_wake(): we clear the flag before re-checking.
 * With another vCPU queued on this CPU, leave it instead (SCHED_BLOCK:
 * false, and the loop gives the CPU away; back here when it runs again). */
bool vcpu_wait_wakeup(struct vcpu *v)
{
	struct guest *g = v->guest;

	while (waiting(v) && !__atomic_load_n(&g->stopping, __ATOMIC_SEQ_CST)) {
		bool offline;

		__atomic_store_n(&v->wake, 0, __ATOMIC_SEQ_CST);
		if (!waiting(v) ||
		    __atomic_load_n(&g->stopping, __ATOMIC_SEQ_CST))
			break;
		if (vcpu_sched_should_block(v, 0))
			return false;
		offline = v->state == VCPU_OFFLINE;
		if (park_ready() && offline)
			v->stats.offline_waits++;
		else if (park_ready())
			v->stats.halt_waits++;
		/* Parked (or a plain spin before parking is armed), the
		 * limits checked as in the run loop. */
		if (!vcpu_wait_turn(
			    v, offline ? PARK_VCPU_OFFLINE : PARK_VCPU_HALTED,
			    offline ? "offline" : "HLT", 0))
			break;
		/* park_until() returns with the base value restored. */
		if (park_ready() && g_spec_policy.park_lowers &&
		    rdmsr(MSR_SPEC_CTRL) != this_cpu()->spec_ctrl_base)
			v->stats.wake_spec_bad++;
	}
	return !g->stopping;
}

/* The loop proper, inlined four times by vcpu_run(): spec, bench and
 * foreign are constants in each copy, so the common guest (no V_SPEC_CTRL
 * copy, no vLAPIC) runs without their tests and with its state in
 * registers. Returns when the vCPU leaves its CPU. */
static __attribute__((always_inline)) inline void
run_loop(struct vcpu *v, struct svm_cpu *sc, u32 clean, const bool spec,
	 const bool bench, const bool foreign)
{
	struct guest *g = v->guest;
	struct vmcb *vmcb = v->vmcb;
	const struct svm_host *host = &sc->host;

	for (;;) {
		/* vLAPIC of a foreign guest: INIT -> wait-for-SIPI here, with
		 * interrupts on (hv/svm/vlapic_vcpu.c); one load when
		 * there is nothing to start. */
		if (foreign && vlapic_before_run_maybe(&v->lapic) &&
		    !vlapic_before_run(v))
			break;
		/* Dekker with vcpu_wait_out(): announce, then check the state,
		 * interrupts off so a kick sent after the check stays pending
		 * and becomes an INTR exit (APM 15.21.1). The SEQ_CST store
		 * (XCHG) is the one full barrier this side needs: the loads
		 * below cannot pass it. The other side has its own (the
		 * SEQ_CST store of v->wake in vcpu_kick() between its state
		 * change and its load of in_guest). */
		irq_disable_inline();
		__atomic_store_n(&v->in_guest, 1, __ATOMIC_SEQ_CST);
		/* The tick flag too, here and not before the CLI: a kick
		 * (sched_kick_running(): the flag, then a host IPI) that
		 * lands in host mode between a look before the CLI and the
		 * VMRUN would find its IPI's handler doing nothing, and the
		 * flag unseen until the next exit, a tick (10 ms) away for a
		 * vCPU that must yield its CPU now. Set before this load, it
		 * is seen here; after, its IPI is still to come and stays
		 * pending: an INTR exit at once (APM 15.21.1). */
		if (__builtin_expect(
			    __atomic_load_n(&v->state, __ATOMIC_SEQ_CST) !=
					    VCPU_RUNNING ||
				    __atomic_load_n(&g->stopping,
						    __ATOMIC_SEQ_CST) ||
				    __atomic_load_n(&v->tick, __ATOMIC_RELAXED),
			    0)) {
			__atomic_store_n(&v->in_guest, 0, __ATOMIC_RELEASE);
			irq_enable_inline();
			if (g->stopping)
				break;
			/* The tick's slow path (hv/svm/vcpu_watchdog.h). */
			if (!vcpu_watchdog_check(v))
				break;
			if (v->state == VCPU_RUNNING)
				continue;
			if (v->state == VCPU_DONE || !vcpu_wait_wakeup(v))
				break;
			vcpu_watchdog_arm(v); /* parked time is not a hang */
			continue;
		}
		if (bench)
			bench_path(&v->stats, __builtin_ia32_rdtsc());
		/* Pending vLAPIC events into EVENTINJ / V_IRQ, after the
		 * Dekker above so a kick from now on forces an exit; one
		 * load when nothing is pending and no exit touched the
		 * vLAPIC (vlapic_entry_maybe()). */
		if (__builtin_expect(v->queued_event != 0, 0))
			vcpu_inject_queued(v); /* behind EXITINTINFO's event */
		if (foreign && vlapic_entry_maybe(&v->lapic))
			vlapic_inject_pending(v);
		v->vmrun_cr0 = vmcb->save.cr0;
		/* V_SPEC_CTRL: the guest's value into the VMCB, the hardware
		 * swaps (vcpu_spec.c). The software swap, and the RSB fill,
		 * are the stub's own, done before its STGI (arch/svm.asm):
		 * interrupts come back there, on host state. An interrupt
		 * handler that runs there sees in_guest 1 a few instructions
		 * longer; the waiter (another CPU) just waits. */
		if (spec)
			vcpu_spec_enter(v);
		svm_vmrun(v->vmcb_hpa, &v->gprs, host);
		/* Out of guest mode. A release store is enough: the waiter
		 * only needs to see 0 after the guest stopped running, and
		 * nothing here is ordered after it (the next entry's store is
		 * the full barrier again). */
		__atomic_store_n(&v->in_guest, 0, __ATOMIC_RELEASE);
		if (spec)
			vcpu_spec_exit(v);
		if (bench)
			v->stats.t_exit = __builtin_ia32_rdtsc();
		vmcb_after_exit(vmcb, clean);
		/* COM1's common accesses, whole, before anything else
		 * (hv/svm/exit_io.h): a console byte's exits. */
		if (foreign && vmcb->control.exit_code == VMEXIT_IOIO &&
		    exit_com1_fast(v))
			continue;
		/* A vector offered through V_IRQ (in service since the
		 * entry) and not taken: V_IRQ still set. Given back before
		 * EXITINTINFO and any handler (vlapic_exit.c), so that an
		 * EOI exit sees what the guest saw. Taken: nothing to do
		 * (an interrupted delivery: vcpu_reinject_event()). */
		if (foreign && (vmcb->control.v_intr & V_IRQ))
			vlapic_exit_offer(v);
		if (__builtin_expect(
			    vmcb->control.exit_int_info & EVENTINJ_VALID, 0))
			vcpu_reinject_event(v); /* event_inject.c */
		if (exit_dispatch_fast(v, vmcb->control.exit_code) ==
		    EXIT_LEAVE)
			break;
	}
}

/* One turn of v on this CPU: from its pick (hv/svm/sched_cpu.c) until it
 * leaves; returns why (v->se.why). Per exit it does only what every exit
 * needs: the VMRUN handshake with vcpu_wait_out(), the VMCB's TLB control
 * and clean bits, EXITINTINFO, one table dispatch (which keeps the
 * statistics) and, on INTR exits only, the watchdog's tick (which also
 * preempts: the scheduler's part). Everything decided at boot (SPEC_CTRL
 * policy, bench, clean-bit support) is read once, before the loop. What
 * the vCPU carries is loaded here and saved on the way out, so it follows
 * the vCPU to whichever CPU runs it next. */
enum sched_why vcpu_run(struct vcpu *v)
{
	struct guest *g = v->guest;
	struct svm_cpu *sc = svm_this_cpu();
	struct vmcb *vmcb = v->vmcb;
	const bool spec = g_spec_policy.guest == SPEC_GUEST_V_SPEC_CTRL;
	const bool bench = g->bench;
	const bool foreign = guest_has_platform(g); /* a vLAPIC */
	const u32 clean = vmcb_clean_mask(&g_features);
	const bool fresh = v->se.last_cpu == SCHED_NO_CPU;
	u64 host_aux = 0;

	v->se.why = SCHED_EXIT;
	if (!sc) {
		guest_stop(g, -1, true, "vCPU %u: SVM is not enabled on CPU %u",
			   v->id, ipi_this_cpu());
		return SCHED_EXIT;
	}
	__atomic_store_n(&v->in_loop, true, __ATOMIC_RELEASE);
	sc->vcpu = v;
	/* Host FS/GS (percpu!)/TR/syscall MSRs, restored after each exit;
	 * the stub's SPEC_CTRL and RSB work for this CPU. */
	svm_vmsave(sc->host.vmcb);
	spec_ctrl_svm_host(&sc->host);
	/* Another guest than last time on this CPU: IBPB (KVM's
	 * svm_vcpu_load()). */
	spec_ctrl_guest_load(g->serial);
	/* Entering the loop is how a vCPU comes to a CPU: what this CPU may
	 * have cached of the VMCB is not to be trusted (APM 15.15.3; KVM
	 * marks all dirty when a vCPU changes CPU). */
	vmcb->control.clean = 0;
	/* RDTSCP reads the hardware TSC_AUX directly: give it the guest's. */
	if (g_features.rdtscp) {
		host_aux = rdmsr(MSR_TSC_AUX);
		wrmsr(MSR_TSC_AUX, v->tsc_aux);
	}
	vcpu_fpu_enter(v); /* its vector state, XCR0, DR0-DR3 */
	vcpu_pkrs_enter(v); /* its IA32_PKRS (0 for a fresh vCPU) */
	if (v->se.last_cpu != ipi_this_cpu())
		exit_cpuid_fill(v); /* its CPUID leaves here (hv/cpuid/) */
	vcpu_sched_enter(v); /* the host timer, the PAUSE window */
	/* A new turn, maybe on another CPU after a wait in the queue: its
	 * vLAPIC's host timer and pending events are looked at again on the
	 * first entry (entry work runs only when asked, hv/vlapic/vlapic.h). */
	if (foreign)
		vlapic_entry_work(&v->lapic);
	vcpu_watchdog_arm(v);
	prof_first_vmrun(); /* the boot profile ends (first vCPU only) */
	if (bench && fresh) { /* self-test stage: boot -> first guest insn */
		struct selftest_ctx st = { .bench = true, .tsc = rdtsc() };

		selftest_run(ST_VCPU_START, &st);
		v->stats.t_exit = 0; /* no exit yet: nothing to time */
		if (!v->stats.path_n) /* any first path is the minimum */
			v->stats.path_min = ~0ull;
	}
	/* A HLT it left the CPU in goes on first (hv/svm/vlapic_vcpu.c). */
	if (v->hlt_wait && !vlapic_hlt_resume(v))
		goto out;
	/* A foreign guest without SPEC_CTRL switching or bench (the usual
	 * one) has its own copy: no per-exit test of either. */
	if (foreign && !spec && !bench)
		run_loop(v, sc, clean, false, false, true);
	else if (spec || foreign)
		run_loop(v, sc, clean, spec, bench, foreign);
	else if (bench)
		run_loop(v, sc, clean, false, true, false);
	else
		run_loop(v, sc, clean, false, false, false);
out:
	vcpu_watchdog_leave(v);
	vcpu_fpu_exit(v); /* saved; clean state for the next vCPU here */
	vcpu_pkrs_exit(v); /* 0: nothing for the next vCPU here */
	if (v->se.why == SCHED_EXIT ||
	    __atomic_load_n(&g->stopping, __ATOMIC_ACQUIRE))
		guest_console_flush(v);
	if (g_features.rdtscp)
		wrmsr(MSR_TSC_AUX, host_aux);
	sc->vcpu = NULL;
	__atomic_store_n(&v->in_loop, false, __ATOMIC_RELEASE);
	return v->se.why;
}
