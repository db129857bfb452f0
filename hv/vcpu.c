/* hv/vcpu.c - the run loop (Jailhouse's shape: VMRUN stub, one C
 * dispatcher, re-enter) and cross-CPU plumbing: vCPU n runs on CPU n,
 * started and kicked through the cross-CPU call (hv/ipi.h). */
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/bench.h"
#include "hv/features.h"
#include "hv/exit.h"
#include "hv/guest.h"
#include "hv/hypercall_abi.h"
#include "hv/ipi.h"
#include "hv/log.h"
#include "hv/svm.h"
#include "hv/vcpu_watchdog.h"

static void bench_path(struct vcpu *v, u64 now)
{
	u64 d;

	if (!v->t_exit)
		return;
	d = now - v->t_exit;
	v->path_n++;
	v->path_sum += d;
	if (!v->path_min || d < v->path_min)
		v->path_min = d;
	if (d > v->path_max)
		v->path_max = d;
}

bool vcpu_wait_wakeup(struct vcpu *v)
{
	struct guest *g = v->guest;

	while (v->state == VCPU_HALTED || v->state == VCPU_OFFLINE) {
		if (g->stopping)
			return false;
		cpu_relax();
	}
	return !g->stopping;
}

static void vcpu_run(struct vcpu *v)
{
	struct guest *g = v->guest;
	struct svm_cpu *sc = svm_this_cpu();
	u64 host_aux = 0;

	/* g->active was raised by mark_running(): teardown waits for us. */
	if (!sc) {
		guest_stop(g, -1, true, "vCPU %u: SVM is not enabled on CPU %u",
			   v->id, smp_this_cpu());
		goto out;
	}
	v->in_loop = true;
	sc->vcpu = v;
	/* Host FS/GS (percpu!)/TR/syscall MSRs, restored after each exit. */
	svm_vmsave(sc->host_vmcb);
	/* RDTSCP reads the hardware TSC_AUX directly: give it the guest's. */
	if (g_features.rdtscp) {
		host_aux = rdmsr(MSR_TSC_AUX);
		wrmsr(MSR_TSC_AUX, v->tsc_aux);
	}
	watchdog_arm(v);
	if (g->bench) /* hv/bench.c: boot -> first guest instruction */
		bench_note_first_vmrun(rdtsc());
	while (!g->stopping) {
		if (v->state != VCPU_RUNNING) {
			if (v->state == VCPU_DONE || !vcpu_wait_wakeup(v))
				break;
			v->progress_tsc =
				rdtsc(); /* parked time is not a hang */
			continue;
		}
		if (g->bench)
			bench_path(v, rdtsc());
		svm_vmrun(v->vmcb_hpa, &v->gprs, sc->host_vmcb);
		if (g->bench)
			v->t_exit = rdtsc();
		v->vmcb->control.tlb_control = TLB_CONTROL_NOTHING;
		if (exit_dispatch(v) == EXIT_LEAVE ||
		    !watchdog_check(v, v->vmcb->control.exit_code))
			break;
	}
	watchdog_disarm();
	vcpu_console_flush(v);
	if (g_features.rdtscp)
		wrmsr(MSR_TSC_AUX, host_aux);
	sc->vcpu = NULL;
	v->in_loop = false;
out:
	__atomic_sub_fetch(&g->active, 1, __ATOMIC_ACQ_REL);
}

static void vcpu_thread(void *arg)
{
	vcpu_run(arg);
}

static int mark_running(struct vcpu *v)
{
	struct guest *g = v->guest;
	int r = 0;

	spin_lock(&g->lock);
	if (v->state != VCPU_IDLE) {
		r = -HC_EBUSY;
	} else {
		v->state = VCPU_RUNNING;
		g->live++;
		/* Counted from now, not from when its CPU gets to it, so a
		 * guest that ends first cannot be freed under the vCPU. */
		__atomic_add_fetch(&g->active, 1, __ATOMIC_ACQ_REL);
	}
	spin_unlock(&g->lock);
	return r;
}

int vcpu_launch(struct vcpu *v)
{
	struct guest *g = v->guest;
	int r;

	if (v->id == smp_this_cpu())
		return -HC_EBUSY; /* this CPU is busy running the caller */
	r = mark_running(v);
	if (r)
		return r;
	if (smp_call_on(v->id, vcpu_thread, v, false)) {
		spin_lock(&g->lock);
		v->state = VCPU_IDLE;
		g->live--;
		__atomic_sub_fetch(&g->active, 1, __ATOMIC_ACQ_REL);
		spin_unlock(&g->lock);
		return -HC_ENOENT; /* its CPU is not online */
	}
	return 0;
}

void vcpu_run_here(struct vcpu *v)
{
	if (mark_running(v))
		return;
	vcpu_run(v);
}

static void kick_fn(void *arg)
{
	(void)arg; /* the IPI itself did the work: an INTR exit */
}

void vcpu_kick(struct vcpu *v)
{
	__atomic_store_n(&v->kick, 1, __ATOMIC_RELEASE);
	if (v->in_loop && v->id != smp_this_cpu())
		smp_call_on(v->id, kick_fn, NULL, false);
}
