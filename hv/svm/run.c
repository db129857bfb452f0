/* hv/svm/run.c - the default run: enable SVM (or say why not and skip),
 * create the guest, run vCPU 0 here (others where it asks), report its
 * results as KTAP, tear it down and check the pool is whole again. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "include/minhv/guest_layout.h"
#include "hv/smp/ipi.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/svm/svm.h"
#include "hv/guest/vcpu_watchdog.h"
#include "hv/smp/time.h"

extern const char builtin_guest[], builtin_guest_end[];

static enum pause_req pause_req(enum tristate t)
{
	return t == TRI_ON  ? PAUSE_REQ_ON :
	       t == TRI_OFF ? PAUSE_REQ_OFF :
			      PAUSE_REQ_AUTO;
}

static void print_counters(const struct guest *g)
{
	struct hc_counters c;
	u64 dropped = 0, gp = 0;

	guest_counters(g, &c);
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		dropped += g->vcpus[i]->stats.io_dropped;
		gp += g->vcpus[i]->stats.msr_gp;
	}
	if (g->con_dropped)
		pr_info("svm: guest %s console flood: %llu bytes dropped\n",
			g->name, (unsigned long long)g->con_dropped);
	pr_info("svm: guest %s exits %llu: cpuid %llu vmmcall %llu ioio %llu msr %llu hlt %llu pause %llu npf %llu intr %llu nmi %llu shutdown %llu svm-insn %llu other %llu; io dropped %llu, msr #GP %llu\n",
		g->name, c.exits_total, c.cpuid, c.vmmcall, c.ioio, c.msr,
		c.hlt, c.pause, c.npf, c.intr, c.nmi, c.shutdown, c.svm_insn,
		c.other, (unsigned long long)dropped, (unsigned long long)gp);
}

static void print_bench(const struct guest *g)
{
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		const struct vcpu *v = g->vcpus[i];

		if (!v->stats.path_n)
			continue;
		/* Under -icount the TSC counts instructions. */
		kprintf("bench: svm.exit_path vcpu=%u n=%llu min=%llu avg=%llu max=%llu tsc\n",
			v->id, (unsigned long long)v->stats.path_n,
			(unsigned long long)v->stats.path_min,
			(unsigned long long)(v->stats.path_sum /
					     v->stats.path_n),
			(unsigned long long)v->stats.path_max);
	}
}

int svm_guest_run_once(const struct guest_params *p, struct guest **out)
{
	struct guest *g;
	int r = guest_create(p, &g);

	if (r)
		return r;
	vcpu_park_snapshot(g);
	/* Guest time starts now: the run-time limit and console budget. */
	g->con_refill_tsc = rdtsc();
	if (g->time_ms)
		g->deadline_tsc = g->con_refill_tsc + (u64)g->time_ms * g_tsc_khz;
	vcpu_run_here(g->vcpus[0]);
	/* vCPU 0 can be done (HLT, IF=0) while others still run. */
	while (!__atomic_load_n(&g->stopping, __ATOMIC_ACQUIRE))
		cpu_relax();
	guest_wait_idle(g);
	*out = g;
	return 0;
}

int svm_run_guest_image(const char *name, const void *img, u64 size)
{
	struct guest_params p = {
		.name = name,
		.image = img,
		.image_size = size,
		.mem_size = (u64)g_options.guest_mem_mb << 20,
		.nr_vcpus = ipi_online_count(),
		.bench = g_options.bench,
		.tests = g_options.tests,
		.pause = { g_options.pause_count, g_options.pause_threshold,
			   pause_req(g_options.pause_intercept) },
		.time_ms = g_options.guest_time_ms,
		.console_rate = g_options.guest_console_rate,
	};
	bool suite = svm_suite_wanted(g_options.tests);
	struct guest *g;
	char res[112];
	u64 before;
	bool ok;
	int r;

	if (svm_init()) {
		ktap_skip("svm.enable", "%s", svm_why_not());
		ktap_skip("svm.guest", "no SVM: %s", svm_why_not());
		return 0;
	}
	ktap_ok("svm.enable", true, "SVM enabled");
	vcpu_watchdog_init(g_options.watchdog_ms);
	if (p.nr_vcpus > GUEST_MAX_VCPUS)
		p.nr_vcpus = GUEST_MAX_VCPUS;
	if (suite)
		p.tests = ""; /* the default suite first, then hv/selftest/svm_suite.c */
	before = mm_free_pages();
	r = svm_guest_run_once(&p, &g);
	if (!ktap_ok("svm.guest_create", r == 0, "guest_create(%s): %d", name,
		     r))
		return -1;
	print_counters(g);
	vcpu_park_checks(g);
	if (g->bench)
		print_bench(g);
	ok = ktap_ok("svm.guest_run", !g->failed && g->exit_status == 0,
		     "guest %s: %s", g->name, g->stop_reason);
	ok &= ktap_ok("svm.guest_reported", g->reports > 0,
		      "guest %s reported no results", g->name);
	/* Dropped, lost or missing results are a failure of the run. */
	ok &= ktap_ok("svm.guest_results", guest_results_ok(g, res, sizeof(res)),
		      "guest %s: %s", g->name, res);
	guest_destroy(g);
	ok &= ktap_ok("svm.pool_restored", mm_free_pages() == before,
		      "pool has %llu free pages after teardown, %llu before",
		      (unsigned long long)mm_free_pages(),
		      (unsigned long long)before);
	if (suite) {
		p.tests = g_options.tests;
		svm_suite_run(&p);
	}
	return ok ? 0 : -1;
}

int svm_run_builtin(void)
{
	return svm_run_guest_image("guest", builtin_guest,
				   (u64)(builtin_guest_end - builtin_guest));
}
