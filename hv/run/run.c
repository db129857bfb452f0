// SPDX-License-Identifier: GPL-2.0-only
/* hv/run/run.c - the default run, once hv_main enabled SVM: create the
 * guest, run vCPU 0 here (others where it asks), report its results as
 * KTAP, tear it down and check the pool is whole again. */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "hv/boot_prof.h"
#include "hv/guest/guest.h"
#include "include/minhv/guest_layout.h"
#include "hv/smp/ipi.h"
#include "hv/ktap.h"
#include "lib/fmt.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/percpu.h"
#include "hv/selftest_hook.h"
#include "hv/run/boot_info.h"
#include "hv/run/run.h"
#include "hv/svm/vcpu_watchdog.h"
#include "hv/svm/vlapic_vcpu.h"
#include "hv/smp/time.h"

_Static_assert(PAUSE_YIELD_NONE == (int)YIELD_NONE &&
		       PAUSE_YIELD_ANY == (int)YIELD_ANY &&
		       PAUSE_YIELD_DIRECTED == (int)YIELD_DIRECTED,
	       "pause_yield= values are enum sched_yield's");

/* The online CPUs cpus= names (all of them for "all"). */
static u32 cpus_count(const char *s)
{
	u32 lo, hi, n = 0;

	if (cpulist_all(s))
		return ipi_online_count();
	while (cpulist_next(&s, &lo, &hi) > 0)
		for (u32 c = lo; c <= hi && c < g_ncpus; c++)
			n += __atomic_load_n(&g_percpu[c]->online,
					     __ATOMIC_ACQUIRE) != 0;
	return n;
}

static enum pause_req pause_req(enum tristate t)
{
	return t == TRI_ON  ? PAUSE_REQ_ON :
	       t == TRI_OFF ? PAUSE_REQ_OFF :
			      PAUSE_REQ_AUTO;
}

/* vCPUs that shared CPUs: what the scheduler did (docs/SCHED.md). */
static void print_sched(const struct guest *g)
{
	u64 n[8] = { 0 };

	for (u32 i = 0; i < g->nr_vcpus; i++) {
		const struct vcpu *v = g->vcpus[i];

		n[0] += v->se.st.picks;
		n[1] += v->se.st.preempts;
		n[2] += v->stats.pause_yields;
		n[3] += v->stats.pause_no_target;
		n[4] += v->se.st.blocks;
		n[5] += v->se.st.migrations;
		n[6] += v->stats.pause_flips;
		n[7] += v->stats.pause_sibling;
	}
	pr_info("svm: guest %s sched: turns %llu, preempted %llu, PAUSE yields %llu (no target %llu, to any sibling %llu), blocked %llu, moved %llu, PAUSE intercept on/off %llu\n",
		g->name, (unsigned long long)n[0], (unsigned long long)n[1],
		(unsigned long long)n[2], (unsigned long long)n[3],
		(unsigned long long)n[7], (unsigned long long)n[4],
		(unsigned long long)n[5], (unsigned long long)n[6]);
}

static void print_counters(const struct guest *g)
{
	struct hc_counters c;
	u64 dropped = 0, gp = 0, cr_gp = 0, spare = 0;

	guest_counters(g, &c);
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		dropped += g->vcpus[i]->stats.io_dropped;
		gp += g->vcpus[i]->stats.msr_gp;
		cr_gp += g->vcpus[i]->stats.mov_cr_gp;
		spare += g->vcpus[i]->lapic.spare_eois;
	}
	if (g->con_dropped)
		pr_info("svm: guest %s console flood: %llu bytes dropped\n",
			g->name, (unsigned long long)g->con_dropped);
	pr_info("svm: guest %s exits %llu: cpuid %llu vmmcall %llu ioio %llu msr %llu hlt %llu pause %llu npf %llu intr %llu nmi %llu shutdown %llu svm-insn %llu other %llu; io dropped %llu, msr #GP %llu\n",
		g->name, c.exits_total, c.cpuid, c.vmmcall, c.ioio, c.msr,
		c.hlt, c.pause, c.npf, c.intr, c.nmi, c.shutdown, c.svm_insn,
		c.other, (unsigned long long)dropped, (unsigned long long)gp);
	if (cr_gp)
		pr_info("svm: guest %s: %llu MOV to CR3/CR4 answered with #GP (QEMU's VMEXIT_INVALID, hv/svm/exit_invalid.c)\n",
			g->name, (unsigned long long)cr_gp);
	/* An interrupt delivered twice shows up as a spare EOI; a guest may
	 * also send them on purpose (not a failure). */
	if (guest_has_platform(g))
		pr_info("svm: guest %s vLAPIC: %llu EOIs with nothing in service\n",
			g->name, (unsigned long long)spare);
	if (g->nr_vcpus > g->ncpus)
		print_sched(g);
	if (guest_has_platform(g) && g->plat.disk) {
		const struct virtio_blk *d = g->plat.disk;

		pr_info("svm: guest %s disk: %llu reads %llu writes %llu flushes %llu errors, needed a reset %u times%s%s\n",
			g->name, (unsigned long long)d->reads,
			(unsigned long long)d->writes,
			(unsigned long long)d->flushes,
			(unsigned long long)d->errors, d->breaks,
			d->broken ? ", now: " : "", d->broken ? d->broken : "");
	}
}

/* Let the self-test stage of this point (hv/selftest/) look at g. */
static void stage(enum selftest_stage st, struct guest *g)
{
	struct selftest_ctx ctx = { .guest = g, .bench = g->bench };
	enum prof_phase was = prof_mark(PROF_SELFTEST);

	selftest_run(st, &ctx);
	prof_mark(was);
}

void run_guests(struct guest *const *gs, u32 n)
{
	for (u32 i = 0; i < n; i++) {
		struct guest *g = gs[i];

		/* Guest time starts now: run-time limit, console budget. */
		g->con_refill_tsc = rdtsc();
		if (g->time_ms)
			g->deadline_tsc =
				g->con_refill_tsc + (u64)g->time_ms * g_tsc_khz;
	}
	prof_mark(PROF_VCPU_START);
	/* vCPU 0 on its CPU, a foreign guest's APs waiting for INIT-SIPI;
	 * this CPU runs its queue until they stop and their vCPUs left. */
	guests_run(gs, n);
	for (u32 i = 0; i < n; i++)
		if (guest_has_platform(gs[i])) /* the UART's last line */
			uart_flush(gs[i]->vcpus[0]);
}

void run_guest(struct guest *g)
{
	run_guests(&g, 1);
}

int run_guest_once(const struct guest_params *p, struct guest **out)
{
	struct guest *g;
	int r = guest_create(p, &g);

	if (r)
		return r;
	run_guest(g);
	*out = g;
	return 0;
}

/* Tear g down; every page it took must be back in the pool (KTAP). */
static bool destroy_checked(struct guest *g, u64 before)
{
	guest_destroy(g);
	return ktap_ok("svm.pool_restored", mm_free_pages() == before,
		       "pool has %llu free pages after teardown, %llu before",
		       (unsigned long long)mm_free_pages(),
		       (unsigned long long)before);
}

u32 run_guest_mem_mb(const void *image, size_t size)
{
	if (g_options.guest_mem_mb)
		return g_options.guest_mem_mb;
	return guest_kind_of(image, size) == GUEST_MINHV ? RUN_MEM_MINHV_MB :
							   RUN_MEM_FOREIGN_MB;
}

u32 run_watchdog_ms(bool minhv_guest)
{
	if (g_options.watchdog_ms >= 0)
		return (u32)g_options.watchdog_ms;
	return minhv_guest ? RUN_WATCHDOG_MINHV_MS : 0;
}

static const char *const end_words[] = {
	[GUEST_END_NONE] = "its exit status",
	[GUEST_END_POWEROFF] = "powered off (ACPI S5)",
	[GUEST_END_RESET] = "reset (reboot=stop)",
};

/* A foreign guest's end as a KTAP result (run_foreign_verdict()). */
static bool exit_status_ok(const struct guest *g, bool linux, const char *name)
{
	enum run_verdict v =
		run_foreign_verdict(linux, g->failed, g->end, g->exit_status);

	if (v == RUN_SKIP) {
		ktap_skip(name, "guest %s skipped itself (exit status %lld)",
			  g->name, (long long)g->exit_status);
		return true;
	}
	return ktap_ok(name, v == RUN_PASS,
		       "guest %s: exit status %lld, ended by %s%s", g->name,
		       (long long)g->exit_status, end_words[g->end],
		       g->failed ? " (stopped by minhv)" : "");
}

/* A guest that reset itself, with reboot=restart, runs again from its
 * image: torn down and created anew (memory, devices, every vCPU from
 * scratch), as QEMU resets the machine. The run-time limit counts from
 * the first start. */
static int run_restarting(struct guest_params *p, struct guest **out)
{
	u64 t0 = rdtsc(), ms;
	u32 limit = p->time_ms;
	struct guest *g = NULL;
	int r;

	for (u32 n = 1;; n++) {
		r = run_guest_once(p, &g);
		if (r || g->end != GUEST_END_RESET || g->failed ||
		    g_options.reboot != REBOOT_RESTART)
			break;
		print_counters(g);
		uart_flush(g->vcpus[0]);
		guest_destroy(g);
		pr_info("svm: guest %s reset itself: restarting it from its image (restart %u; reboot=stop ends the run instead)\n",
			p->name, n);
		ms = (rdtsc() - t0) / g_tsc_khz;
		if (limit)
			p->time_ms = ms < limit ? limit - (u32)ms : 1;
	}
	p->time_ms = limit;
	*out = g;
	return r;
}

/* A foreign kernel (multiboot, or a Linux bzImage): no KTAP of its own;
 * its exit status (isa-debug-exit) is printed for tools/kut.sh and
 * tools/linux-run.sh. The run passes only when the guest ended by itself
 * as a pass (linux.exit_status, multiboot.exit_status: verdict.c); a
 * kvm-unit-tests skip (77) is a KTAP SKIP. */
static int run_foreign(struct guest_params *p, bool linux)
{
	/* As GRUB and QEMU do, a multiboot command line starts with the
	 * kernel's own path (argv[0] for kvm-unit-tests). */
	static char cmd[sizeof(g_options.guest) + sizeof(g_options.cmdline)];
	struct guest *g = NULL;
	u64 before = mm_free_pages();
	bool ok;
	int r;

	if (!linux) {
		fmt_snprintf(cmd, sizeof(cmd), "%s%s%s", g_options.guest,
			     p->cmdline && p->cmdline[0] ? " " : "",
			     p->cmdline ? p->cmdline : "");
		p->cmdline = cmd;
	}
	r = run_restarting(p, &g);
	if (!ktap_ok("svm.guest_create", r == 0, "guest_create(%s): %d (%s)",
		     p->name, r,
		     r == -E2BIG ? "the page pool is too small: raise pool=" :
				   "see above"))
		return r;
	print_counters(g);
	pr_info("svm: guest %s: exit status %lld%s%s\n", g->name,
		(long long)g->exit_status,
		g->failed ? " (stopped by minhv)" : "",
		g->con_dropped ? " (console output dropped: see above)" : "");
	/* bench=1: /init's RDTSC is guest TSC, host TSC plus vCPU 0's VMCB
	 * offset (APM 15.30.5); make bench subtracts it (Linux may write the
	 * TSC, so it is read after the run). */
	if (linux && g->bench)
		kprintf("bench: linux tsc_offset=%lld tsc\n",
			(long long)g->vcpus[0]->vmcb->control.tsc_offset);
	ok = ktap_ok("svm.guest_run", !g->failed, "guest %s: %s", g->name,
		     g->stop_reason);
	/* A kernel that reports a failure fails the run too. */
	ok &= exit_status_ok(g, linux,
			     linux ? "linux.exit_status" :
				     "multiboot.exit_status");
	return destroy_checked(g, before) && ok ? 0 : -EIO; /* a check failed */
}

int run_guest_image(const struct boot_info *bi, const char *tests,
		    struct guest_params *ran)
{
	const char *name = bi->guest_name[0] ? bi->guest_name : "guest";
	enum guest_kind kind = guest_kind_of(bi->guest_image, bi->guest_size);
	struct guest_params p = {
		.name = name,
		.image = bi->guest_image,
		.image_size = bi->guest_size,
		.cmdline = g_options.cmdline,
		.initrd = bi->initrd,
		.initrd_size = bi->initrd_size,
		.mem_size =
			(u64)run_guest_mem_mb(bi->guest_image, bi->guest_size)
			<< 20,
		.nr_vcpus = cpus_count(g_options.cpus),
		.cpus = g_options.cpus,
		.bench = g_options.bench,
		.tests = tests,
		.pause = { g_options.pause_count, g_options.pause_threshold,
			   pause_req(g_options.pause_intercept) },
		.sched = { g_options.slice_us,
			   (enum sched_yield)g_options.pause_yield,
			   g_options.pause_window == PAUSE_WINDOW_DYNAMIC },
		.time_ms = g_options.guest_time_ms,
		.console_rate = g_options.guest_console_rate,
		.disk = bi->disk,
		.disk_size = bi->disk_size,
		.disk_ro = g_options.disk_ro,
	};
	struct guest *g;
	char res[112];
	u64 before;
	bool ok;
	int r;

	if (ran)
		ran->image = NULL;
	prof_mark(PROF_APIC_CAL);
	vcpu_watchdog_init(run_watchdog_ms(kind == GUEST_MINHV));
	prof_mark(PROF_GUEST);
	if (g_options.vcpus)
		p.nr_vcpus = g_options.vcpus;
	if (!p.nr_vcpus) /* cpus= names no online CPU: guest_create says so */
		p.nr_vcpus = 1;
	if (p.nr_vcpus > GUEST_MAX_VCPUS)
		p.nr_vcpus = GUEST_MAX_VCPUS;
	if (kind != GUEST_MINHV) {
		/* Only the BSP runs (APs are not started yet): the guest is
		 * told exactly the vCPUs it has. */
		if (!g_options.vcpus)
			p.nr_vcpus = 1;
		return run_foreign(&p, kind == GUEST_LINUX);
	}
	before = mm_free_pages();
	r = guest_create(&p, &g);
	if (!r) {
		stage(ST_GUEST_CREATED, g);
		run_guest(g);
	}
	if (!ktap_ok("svm.guest_create", r == 0, "guest_create(%s): %d", name,
		     r))
		return r;
	if (ran)
		*ran = p;
	print_counters(g);
	stage(ST_GUEST_STOPPED, g);
	ok = ktap_ok("svm.guest_run", !g->failed && g->exit_status == 0,
		     "guest %s: %s", g->name, g->stop_reason);
	ok &= ktap_ok("svm.guest_reported", g->reports > 0,
		      "guest %s reported no results", g->name);
	/* Dropped, lost or missing results are a failure of the run. */
	ok &= ktap_ok("svm.guest_results",
		      guest_results_ok(g, res, sizeof(res)), "guest %s: %s",
		      g->name, res);
	return destroy_checked(g, before) && ok ? 0 : -EIO; /* a check failed */
}
