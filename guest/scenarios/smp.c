// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/smp.c - every vCPU, started by HC_VCPU_START, adds to a
 * shared counter under a lock and atomically; both totals must be exact. */
#include "guest/atomic.h"
#include "guest/console.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"

#define ITERS 20000

static spinlock_t lock;
static u64 locked_count; /* only touched under lock */
static volatile u64 atomic_count;
static volatile u64 seen[GUEST_MAX_VCPUS];

static void work(void *unused)
{
	u32 id = smp_id();

	(void)unused;
	printf("smp: vCPU %u of %u running\n", id, smp_nr());
	atomic_inc(&seen[id]);
	for (int i = 0; i < ITERS; i++) {
		spin_lock_nopause(&lock);
		locked_count++;
		spin_unlock(&lock);
		atomic_inc(&atomic_count);
	}
}

static void smp_body(void)
{
	u32 nr = smp_nr(), ran, id, once = 0;

	locked_count = 0;
	atomic_count = 0;
	for (id = 0; id < GUEST_MAX_VCPUS; id++)
		seen[id] = 0;
	ran = on_all_vcpus(work, NULL);
	report(ran == nr, "%u of %u vCPUs ran", ran, nr);
	for (id = 0; id < nr; id++)
		once += seen[id] == 1;
	report(once == nr, "%u of %u vCPU ids seen exactly once", once, nr);
	report(locked_count == (u64)ITERS * nr,
	       "locked counter %llu, want %llu",
	       (unsigned long long)locked_count,
	       (unsigned long long)ITERS * nr);
	report(atomic_count == (u64)ITERS * nr,
	       "atomic counter %llu, want %llu",
	       (unsigned long long)atomic_count,
	       (unsigned long long)ITERS * nr);
	/* The mailbox again: parked vCPUs come back by HC_VCPU_ONLINE. */
	ran = on_all_vcpus(work, NULL);
	report(ran == nr && atomic_count == 2ULL * ITERS * nr,
	       "second round: %u vCPUs, counter %llu", ran,
	       (unsigned long long)atomic_count);
}

const struct scenario scn_smp = { "smp", "smp", NULL, smp_body, 0 };
