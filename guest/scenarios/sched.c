// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/sched.c - vCPUs sharing CPUs (docs/SCHED.md), each run
 * in a guest of its own by the hypervisor's sched suite (tests=sched):
 * sched_spinlock, every vCPU contending on a PAUSE spinlock held long
 * enough that its holder is often preempted with it (the count must come
 * out exact: the spinners let the holder run again, whatever the policy);
 * sched_hog, a vCPU that never exits shares vCPU 0's CPU, and vCPU 0 must
 * get its CPU back again and again (the hog is preempted at its slice). */
#include "guest/atomic.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"

#define LOCK_ROUNDS 12
#define HOLD_ITERS 150000ULL /* a good part of a slice under QEMU TCG */
#define WORK_ITERS 30000ULL
#define HOG_ROUNDS 20

static spinlock_t lock;
static volatile unsigned long long protected_count, hog_count, hog_stop;

static void work(unsigned long long n)
{
	for (volatile unsigned long long i = 0; i < n; i++)
		;
}

static const char *yield_name(unsigned int y)
{
	return y == HV_YIELD_NONE ? "none" :
	       y == HV_YIELD_ANY  ? "any" :
				    "directed";
}

static unsigned long long pause_exits(void)
{
	struct hc_counters c;

	return hc_get_counters(&c, sizeof(c)) == sizeof(c) ? c.pause : 0;
}

static void locker(void *unused)
{
	(void)unused;
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		spin_lock(&lock); /* PAUSE while it spins */
		protected_count++;
		work(HOLD_ITERS);
		spin_unlock(&lock);
		work(WORK_ITERS);
	}
}

static void spinlock_body(void)
{
	u32 nr = smp_nr(), ran;
	unsigned long long before, t0, dt, exits;

	protected_count = 0;
	before = pause_exits();
	t0 = rdtsc();
	ran = on_all_vcpus(locker, NULL);
	dt = rdtsc() - t0;
	exits = pause_exits() - before;
	report(ran == nr, "%u of %u vCPUs took part", ran, nr);
	report(protected_count == (unsigned long long)LOCK_ROUNDS * nr,
	       "lock-protected count %llu, want %llu", protected_count,
	       (unsigned long long)LOCK_ROUNDS * nr);
	report_info(
		"%u vCPUs on %u CPU(s), pause_yield=%s: %u lock rounds in %llu TSC, %llu PAUSE exits",
		nr, boot_info->nr_cpus, yield_name(boot_info->pause_yield),
		LOCK_ROUNDS * nr, dt, exits);
}

/* Never exits: no PAUSE, no I/O, no hypercall until told to stop. */
static void hog(void *unused)
{
	(void)unused;
	while (!atomic_read(&hog_stop))
		atomic_inc(&hog_count);
}

/* vCPU n starts on CPU n mod nr_cpus: vCPU nr_cpus shares vCPU 0's. */
static const char *need_sharing(void)
{
	return boot_info->nr_cpus < smp_nr() ?
		       NULL :
		       "needs a vCPU sharing vCPU 0's CPU (vcpus= above cpus=)";
}

static void hog_body(void)
{
	u32 id = boot_info->nr_cpus;
	unsigned long long c, t0 = rdtsc();
	int i;

	hog_count = hog_stop = 0;
	if (!report(vcpu_run(id, hog, NULL) == 0, "vCPU %u (the hog) started",
		    id))
		return;
	/* Each change of the count needs the hog to have run, so this vCPU
	 * was off its CPU, and it sees it only once it has the CPU back:
	 * the hog was preempted. No exits here either (plain loads). */
	for (i = 0; i < HOG_ROUNDS; i++) {
		c = atomic_read(&hog_count);
		while (atomic_read(&hog_count) == c)
			if (rdtsc() - t0 > VCPU_WAIT_TSC)
				break;
		if (atomic_read(&hog_count) == c)
			break;
	}
	report(i == HOG_ROUNDS,
	       "vCPU 0 got its CPU back from the hog %d times (want %d)", i,
	       HOG_ROUNDS);
	atomic_set(&hog_stop, 1);
	report(vcpu_wait(id), "the hog stopped when told");
}

const struct scenario scn_sched_spinlock = { "sched_spinlock", "sched", NULL,
					     spinlock_body, SCN_MANUAL };
const struct scenario scn_sched_hog = { "sched_hog", "sched", need_sharing,
					hog_body, SCN_MANUAL };
