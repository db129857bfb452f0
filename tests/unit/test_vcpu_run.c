// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vcpu_run.c - the run loop (hv/svm/vcpu_run.c) over the
 * world-switch double (tests/doubles/fake_vmrun.h): a real guest from
 * guest_create() is entered with interrupts off, each scripted exit is
 * dispatched in order, the loop leaves on EXIT_LEAVE or when the guest is
 * stopped elsewhere (never re-entering: the double fails a VMRUN beyond
 * its script), EXITINTINFO's event is back in EVENTINJ before the
 * handler runs, and the watchdog's tick stops a guest that makes no
 * progress, or runs past its time, but not one that does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apicdef.h"
#include "arch/msr.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/park/internal.h"
#include "hv/run/run.h"
#include "hv/sched/sched.h"
#include "hv/svm/sched_cpu.h"
#include "hv/svm/vcpu_watchdog.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_vmrun.h"
#include "tests/unit/run_fixture.h"

#define MS (RF_TSC_KHZ) /* TSC cycles in a millisecond */
/* An external interrupt whose delivery an exit interrupted. */
#define EXT_EVENT (0x41 | EVENTINJ_TYPE_INTR | EVENTINJ_VALID)
#define GP_EVENT \
	(VEC_GP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID | EVENTINJ_EV)

static struct guest *g;
static u64 now; /* the TSC, moved by the script */
static unsigned arms; /* host timer starts (a count written) */

static u64 clock_now(void)
{
	return now;
}

static int setup(void **s)
{
	(void)s;
	rf_setup(1, 0);
	now = 0;
	arms = 0;
	fake_rdtsc_hook = clock_now;
	g = NULL;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	if (g)
		guest_destroy(g);
	rf_teardown();
	return 0;
}

static struct vcpu *create(u32 nr)
{
	struct guest_params p = rf_params(GUEST_MINHV, nr);

	assert_int_equal(guest_create(&p, &g), 0);
	return g->vcpus[0];
}

/* Every VMRUN was entered as the stub demands (IF=0: the kick that comes
 * after the state check must stay pending) on CPU 0, with v's VMCB. */
static void check_entries(const struct vcpu *v)
{
	for (unsigned i = 0; i < fake_vmrun_count(); i++) {
		const struct fake_entry *e = fake_vmrun_entry(i);

		assert_false(e->irq_enabled);
		assert_int_equal(e->cpu, 0);
		assert_int_equal(e->vmcb_hpa.v, v->vmcb_hpa.v);
	}
}

/* The loop is left for good: out of guest mode and out of the loop. */
static void check_left(const struct vcpu *v)
{
	assert_false(v->in_loop);
	assert_int_equal(v->in_guest, 0);
	assert_int_equal(g->active, 0);
}

/* Each exit is dispatched in order (CPUID and a 1-byte OUT step RIP, the
 * OUT to a port nobody emulates is dropped and counted) and the loop
 * leaves at HC_EXIT's EXIT_LEAVE: a fourth VMRUN would fail the test. */
static void test_dispatch_in_order_until_leave(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_CPUID },
		RF_OUTB(0x80, 0x12),
		RF_HC(HC_EXIT, 5, 0),
	};
	struct vcpu *v;

	(void)s;
	v = create(1);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	fake_trace_clear();
	fake_trace_enable(true);
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), 3);
	check_entries(v);
	assert_int_equal(fake_vmrun_entry(0)->vmcb.save.rip, RF_ENTRY);
	assert_int_equal(fake_vmrun_entry(1)->vmcb.save.rip, RF_ENTRY + 2);
	assert_int_equal(fake_vmrun_entry(2)->vmcb.save.rip, RF_ENTRY + 3);
	assert_int_equal(v->stats.exits, 3);
	assert_int_equal(v->stats.count[EK_CPUID], 1);
	assert_int_equal(v->stats.count[EK_IOIO], 1);
	assert_int_equal(v->stats.count[EK_VMMCALL], 1);
	assert_int_equal(v->stats.io_dropped, 1);
	assert_true(g->stopping);
	assert_false(g->failed);
	assert_int_equal(g->exit_status, 5);
	check_left(v);
	/* One CLI before each VMRUN, none after the last: EXIT_LEAVE left
	 * at once, not through another turn's state check. */
	assert_int_equal(fake_trace_count("cli"), 3);
	assert_true(fake_trace_find("cli") < fake_trace_find("vmrun 1"));
	assert_int_equal(fake_trace_find("sti"), -1); /* IF=1 is the stub's */
	/* The host state was saved for the stub once, at loop entry. */
	assert_int_equal(fake_vmsave_count, 1);
}

static void stop_elsewhere(void)
{
	guest_stop(g, 9, false, "stopped by another vCPU");
}

/* A guest stopped by another CPU while this vCPU handled an exit: the
 * handler finishes, the loop sees the stop at the top and never enters
 * again. */
static void test_leaves_when_stopped_elsewhere(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_CPUID },
		{ .code = VMEXIT_INTR, .then = stop_elsewhere },
	};
	struct vcpu *v;

	(void)s;
	v = create(1);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), 2);
	assert_int_equal(v->stats.count[EK_INTR], 1);
	assert_int_equal(g->exit_status, 9);
	assert_string_equal(g->stop_reason, "stopped by another vCPU");
	check_left(v);
}

static void clear_if(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags &= ~RFLAGS_IF;
}

/* HLT with IF=0 in minhv's guest: nothing can wake the vCPU, it is done,
 * and as the last one out it stops the guest. */
static void test_hlt_if0_is_done(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_HLT, .guest = clear_if },
	};
	struct vcpu *v;

	(void)s;
	v = create(1);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), 1);
	assert_int_equal(v->state, VCPU_DONE);
	assert_true(g->stopping);
	check_left(v);
}

/* An exit during the delivery of an external interrupt (EXITINTINFO) whose
 * handler raises #GP: the interrupt is back in EVENTINJ before the handler
 * runs, so the #GP queues behind it (a self IPI exits right after its
 * delivery) and goes in at the entry after. Re-injected after the
 * handler, it would have overwritten the #GP, or the order would swap. */
static void test_exitintinfo_before_dispatch(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_MSR,
		  .int_info = EXT_EVENT,
		  .guest = rf_guest_rdmsr,
		  .arg = 0x1234 },
		{ .code = VMEXIT_INTR },
		RF_HC(HC_EXIT, 0, 0),
	};
	struct vcpu *v;

	(void)s;
	v = create(1);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), 3);
	assert_int_equal(fake_vmrun_entry(0)->vmcb.control.event_inj, 0);
	assert_int_equal(fake_vmrun_entry(1)->vmcb.control.event_inj,
			 EXT_EVENT);
	assert_int_equal(rf_self_kicks, 1);
	assert_int_equal(fake_vmrun_entry(2)->vmcb.control.event_inj, GP_EVENT);
	/* The faulting RDMSR was not stepped over. */
	assert_int_equal(fake_vmrun_entry(2)->vmcb.save.rip, RF_ENTRY);
	assert_int_equal(v->stats.msr_gp, 1);
	assert_int_equal(v->queued_event, 0);
	check_left(v);
}

static void count_arms(u32 msr, u64 val)
{
	if (msr == X2APIC_MSR(APIC_REG_TIMER_INIT) && val)
		arms++;
}

static void tick_4ms(void)
{
	now += 4 * MS;
}

/* watchdog_ms=10: INTR exits of the host timer's tick every 4 ms and
 * nothing else is no progress; the tick that finds 12 ms without any
 * stops the guest as failed, and the loop leaves. Each tick re-arms the
 * host timer. */
static void test_watchdog_stops_no_progress(void **s)
{
	const struct fake_exit intr = { .code = VMEXIT_INTR,
					.tick = true,
					.then = tick_4ms };
	const struct fake_exit script[] = { intr, intr, intr };
	struct vcpu *v;

	(void)s;
	rf_watchdog_init(10);
	v = create(1);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	fake_wrmsr_hook = count_arms;
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), 3);
	assert_true(g->failed);
	assert_non_null(strstr(g->stop_reason, "no progress for 12 ms"));
	assert_int_equal(v->tick, 0);
	check_left(v);
	/* Armed at loop entry and at each tick, stopped on the way out. */
	assert_int_equal(arms, 4);
	assert_int_equal(fake_msr_read(0, X2APIC_MSR(APIC_REG_TIMER_INIT)), 0);
	assert_int_equal(fake_msr_read(0, X2APIC_MSR(APIC_REG_LVT_TIMER)),
			 APIC_LVT_MASKED);
}

/* The same ticks with a useful exit between them: progress, no stop,
 * until the guest ends itself. */
static void test_watchdog_spares_progress(void **s)
{
	const struct fake_exit intr = { .code = VMEXIT_INTR,
					.tick = true,
					.then = tick_4ms };
	const struct fake_exit cpuid = { .code = VMEXIT_CPUID };
	const struct fake_exit script[] = {
		intr, cpuid, intr, cpuid,
		intr, cpuid, intr, RF_HC(HC_EXIT, 0, 0),
	};
	struct vcpu *v;

	(void)s;
	rf_watchdog_init(10);
	v = create(1);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), ARRAY_SIZE(script));
	assert_false(g->failed);
	assert_string_equal(g->stop_reason, "exited with status 0");
	check_left(v);
}

/* Another vCPU queued behind the running one (here vCPU 1 of the same
 * guest, 2 vCPUs on 1 CPU, started meanwhile): the kick takes the next
 * exit's slow path and PAUSE is intercepted from the next entry on; with
 * nobody queued (the first entry) it is not (pause_intercept=auto). */
static void launch_vcpu1(void)
{
	assert_int_equal(vcpu_claim_start(g->vcpus[1]), 0);
	assert_int_equal(vcpu_launch(g->vcpus[1]), 0);
}

static void test_pause_intercept_follows_queue(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_CPUID, .then = launch_vcpu1 },
		RF_HC(HC_EXIT, 0, 0),
	};
	struct vcpu *v;

	(void)s;
	v = create(2);
	assert_int_equal(g->ncpus, 1);
	assert_true(g->pause.intercept);
	assert_true(g->pause.follow);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), 2);
	assert_false(vmcb_has_intercept(&fake_vmrun_entry(0)->vmcb,
					INTERCEPT_PAUSE));
	assert_true(vmcb_has_intercept(&fake_vmrun_entry(1)->vmcb,
				       INTERCEPT_PAUSE));
	assert_int_equal(v->stats.pause_flips, 2);
	/* vCPU 1 never ran: dropped from the queue when the guest stopped. */
	assert_int_equal(g->vcpus[1]->se.st.picks, 0);
	check_left(v);
}

/* 3 vCPUs on 2 CPUs, pause_yield=directed (the default), vCPU 0 on
 * CPU 0: with vCPU 1 queued on CPU 1 and nobody on CPU 0, PAUSE is not
 * intercepted (an exit could only pull vCPU 1 over for good,
 * docs/SCHED.md "PAUSE"); once vCPU 2 waits for CPU 0, it is. */
static int setup2(void **s)
{
	setup(s);
	rf_teardown();
	rf_setup(2, 0);
	return 0;
}

static void test_pause_follows_own_cpu(void **s)
{
	struct guest_params p = rf_params(GUEST_MINHV, 3);
	struct runq *rq0, *rq1;
	struct vcpu *v;
	bool start;

	(void)s;
	p.sched.yield = YIELD_DIRECTED;
	assert_int_equal(guest_create(&p, &g), 0);
	v = g->vcpus[0];
	assert_int_equal(g->ncpus, 2);
	assert_true(g->pause.follow);
	rq0 = sched_rq(0);
	rq1 = sched_rq(1);
	v->se.cpu = 0;
	rq0->loop = true; /* as vcpu_run_here() before it adds vCPU 0 */
	vmcb_set_intercept(v->vmcb, INTERCEPT_PAUSE);
	assert_int_equal(sched_add(&g->vcpus[1]->se, 1, 0, &start), 0);
	vcpu_pause_follow(v);
	assert_false(vmcb_has_intercept(v->vmcb, INTERCEPT_PAUSE));
	assert_int_equal(v->stats.pause_flips, 1);
	assert_int_equal(sched_add(&g->vcpus[2]->se, 0, 0, &start), 0);
	vcpu_pause_follow(v);
	assert_true(vmcb_has_intercept(v->vmcb, INTERCEPT_PAUSE));
	assert_int_equal(v->stats.pause_flips, 2);
	/* Off the queues again: nothing runs them. */
	runq_detach(rq1, &g->vcpus[1]->se);
	runq_detach(rq0, &g->vcpus[2]->se);
	g->vcpus[1]->se.state = g->vcpus[2]->se.state = SE_NONE;
	rq0->loop = rq1->loop = false;
}

/* A vCPU that waits in place on another CPU (SE_RUNNING there) is kicked
 * with one host IPI: the wake-up's when that CPU is parked in HLT, the
 * kick's when it is not (in guest mode: an INTR exit). Two went out to a
 * parked CPU before, the second an extra round of the cross-call queue
 * per Linux IPI to an idle vCPU. */
static void test_kick_parked_cpu_one_ipi(void **s)
{
	struct guest_params p = rf_params(GUEST_MINHV, 2);
	struct vcpu *v1;

	(void)s;
	assert_int_equal(guest_create(&p, &g), 0);
	v1 = g->vcpus[1];
	assert_int_equal(park_init(false), 0);
	v1->se.cpu = 1;
	v1->se.state = SE_RUNNING;
	g_park_cpus[1].parked = 1;
	vcpu_kick(v1);
	rf_join();
	assert_int_equal(rf_calls, 1);
	assert_int_equal(g_park_cpus[1].kick, 1);
	g_park_cpus[1].parked = 0; /* in guest mode: the kick's IPI */
	vcpu_kick(v1);
	rf_join();
	assert_int_equal(rf_calls, 2);
	v1->se.state = SE_NONE;
}

/* The lost kick: vCPU 1 is queued behind vCPU 0, whose turn is over,
 * just after the run loop looked at v->tick and before its CLI: the kick
 * (v->tick, then a host IPI) lands in host mode, where its handler does
 * nothing. The entry must still see it: vCPU 0 is preempted before it
 * enters again, and vCPU 1 runs. Checked only after the exit, the flag
 * waited for vCPU 0's next exit: on hardware, the next tick, 10 ms on. */
static void turn_over_kick_before_cli(void)
{
	now = 6 * MS; /* the 5 ms turn is over */
	fake_cli_hook = launch_vcpu1;
}

static void test_kick_before_cli_not_lost(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_CPUID, .then = turn_over_kick_before_cli },
		RF_HC(HC_EXIT, 0, 0), /* whoever runs next */
	};
	struct vcpu *v;

	(void)s;
	v = create(2);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(v);
	assert_null(fake_cli_hook); /* the kick came */
	assert_int_equal(fake_vmrun_count(), 2);
	assert_int_equal(fake_vmrun_entry(1)->vmcb_hpa.v,
			 g->vcpus[1]->vmcb_hpa.v);
	assert_int_equal(v->se.st.preempts, 1);
	assert_int_equal(g->vcpus[1]->se.st.picks, 1);
	assert_false(fake_vmrun_entry(1)->irq_enabled);
}

/* watchdog_ms=10, 2 vCPUs on 1 CPU, pause_yield=none, turns of 1 s:
 * vCPU 0 spins on PAUSE for 24 ms with vCPU 1 queued behind it. While a
 * sibling works (a tick of its own that found no PAUSE exit, elsewhere),
 * the spinner waits for it and is not stopped; when nobody does anything
 * but spin (a deadlock), the watchdog stops the guest as before. */
static void sibling_works(void)
{
	now += 4 * MS;
	if (!g->stopping)
		g->wd_work++;
}

static void spin_run(void (*tick)(void))
{
	const struct fake_exit pause = { .code = VMEXIT_PAUSE,
					 .next_rip = RF_ENTRY + 2 };
	const struct fake_exit intr = { .code = VMEXIT_INTR,
					.tick = true,
					.then = tick };
	const struct fake_exit script[] = {
		{ .code = VMEXIT_CPUID, .then = launch_vcpu1 },
		pause,
		intr,
		pause,
		intr,
		pause,
		intr,
		pause,
		intr,
		pause,
		intr,
		pause,
		intr,
		RF_HC(HC_EXIT, 0, 0),
	};
	struct guest_params p = rf_params(GUEST_MINHV, 2);

	rf_watchdog_init(10);
	g_features.nrips = true;
	p.sched.yield = YIELD_NONE;
	p.sched.slice_us = 1000000;
	assert_int_equal(guest_create(&p, &g), 0);
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(g->vcpus[0]);
}

static void test_spinner_waits_for_sibling(void **s)
{
	(void)s;
	spin_run(sibling_works);
	assert_int_equal(fake_vmrun_count(), 14);
	assert_false(g->failed);
	assert_string_equal(g->stop_reason, "exited with status 0");
	assert_int_equal(g->vcpus[0]->stats.count[EK_PAUSE], 6);
	check_left(g->vcpus[0]);
}

static void test_spinners_only_stopped(void **s)
{
	(void)s;
	spin_run(tick_4ms);
	assert_true(fake_vmrun_count() < 14);
	assert_true(g->failed);
	assert_non_null(strstr(g->stop_reason, "no progress for 12 ms"));
	check_left(g->vcpus[0]);
}

/* pause_yield=directed, 2 vCPUs on 1 CPU: vCPU 0 spins in kernel mode,
 * vCPU 1 (queued, never ran: user mode as far as KVM's rule goes, no
 * event for it) is no directed target. The first 7 PAUSE exits in a row
 * step over the PAUSE (a short wait for a running vCPU); the 8th gives
 * the rest of the turn to vCPU 1, the sibling waiting for the CPU. */
static void test_pause_sibling_after_streak(void **s)
{
	const struct fake_exit pause = { .code = VMEXIT_PAUSE,
					 .next_rip = RF_ENTRY + 2 };
	const struct fake_exit script[] = {
		{ .code = VMEXIT_CPUID, .then = launch_vcpu1 },
		pause,
		pause,
		pause,
		pause,
		pause,
		pause,
		pause,
		pause,
		RF_HC(HC_EXIT, 0, 0), /* vCPU 1 */
	};
	struct guest_params p = rf_params(GUEST_MINHV, 2);
	struct vcpu *v;

	(void)s;
	g_features.nrips = true;
	p.sched.yield = YIELD_DIRECTED;
	assert_int_equal(guest_create(&p, &g), 0);
	v = g->vcpus[0];
	fake_vmrun_script(script, ARRAY_SIZE(script));
	vcpu_run_here(v);
	assert_int_equal(fake_vmrun_count(), 10);
	assert_int_equal(fake_vmrun_entry(8)->vmcb_hpa.v, v->vmcb_hpa.v);
	assert_int_equal(fake_vmrun_entry(9)->vmcb_hpa.v,
			 g->vcpus[1]->vmcb_hpa.v);
	assert_int_equal(v->stats.pause_no_target, 7);
	assert_int_equal(v->stats.pause_sibling, 1);
	assert_int_equal(v->stats.pause_yields, 1);
	assert_int_equal(g->vcpus[1]->se.st.yielded_to, 1);
}

/* guest_time_ms=5 (run_guest() sets the deadline): the first tick past
 * it stops the guest, progress or not. */
static void test_run_time_limit(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_CPUID },
		{ .code = VMEXIT_INTR, .tick = true, .then = tick_4ms },
		{ .code = VMEXIT_CPUID },
		{ .code = VMEXIT_INTR, .tick = true, .then = tick_4ms },
	};
	struct guest_params p = rf_params(GUEST_MINHV, 1);

	(void)s;
	p.time_ms = 5;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	assert_int_equal(run_guest_once(&p, &g), 0);
	assert_int_equal(fake_vmrun_count(), 4);
	assert_true(g->failed);
	assert_non_null(
		strstr(g->stop_reason, "run-time limit of 5 ms reached"));
	check_left(g->vcpus[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_dispatch_in_order_until_leave, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_leaves_when_stopped_elsewhere, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hlt_if0_is_done, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_exitintinfo_before_dispatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_stops_no_progress,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_spares_progress,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_pause_intercept_follows_queue, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pause_follows_own_cpu,
						setup2, teardown),
		cmocka_unit_test_setup_teardown(test_kick_parked_cpu_one_ipi,
						setup2, teardown),
		cmocka_unit_test_setup_teardown(test_kick_before_cli_not_lost,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_pause_sibling_after_streak,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_spinner_waits_for_sibling,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_spinners_only_stopped,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_time_limit, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
