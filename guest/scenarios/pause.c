// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/pause.c - PAUSE as configured: a contended spinlock
 * across vCPUs, and the hypervisor's PAUSE exit counter per pause_mode
 * (none: no exits; every: one per PAUSE; filter: few, or SKIP when the
 * filter is not emulated, as under QEMU TCG). */
#include "guest/atomic.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"

#define LOCK_ROUNDS 2000
#define TIGHT_PAUSES 40000 /* 10x the default filter count */

static spinlock_t lock;
static volatile unsigned long long pauses, protected_count;

/* spin_lock() that counts the PAUSEs it executes. */
static void lock_counted(unsigned long long *n)
{
	while (__atomic_exchange_n(&lock.v, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock.v, __ATOMIC_RELAXED)) {
			cpu_relax();
			(*n)++;
		}
}

static void contend(void *unused)
{
	unsigned long long n = 0;

	(void)unused;
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		lock_counted(&n);
		protected_count++;
		for (int j = 0; j < 50; j++) /* hold it a little */
			__asm__ volatile("" ::: "memory");
		spin_unlock(&lock);
	}
	__atomic_add_fetch(&pauses, n, __ATOMIC_SEQ_CST);
}

static unsigned long long pause_exits(void)
{
	struct hc_counters c;

	return hc_get_counters(&c, sizeof(c)) == sizeof(c) ? c.pause : ~0ULL;
}

static void check_exits(const char *what, unsigned long long exits,
			unsigned long long executed, bool tight)
{
	u32 mode = boot_info->pause_mode, count = boot_info->pause_count;

	if (mode != HV_PAUSE_NONE && (boot_info->flags & HV_BI_NESTED)) {
		/* Nested KVM runs us with L0's filter count and threshold
		 * when L0 intercepts PAUSE; only "off" is ours for sure. */
		report(exits <= executed && (!tight || exits > 0),
		       "%s: %llu PAUSE exits for %llu PAUSEs (nested: L0's filter values apply)",
		       what, exits, executed);
	} else if (mode == HV_PAUSE_NONE) {
		report(exits == 0,
		       "%s: %llu PAUSE exits for %llu PAUSEs, not intercepted",
		       what, exits, executed);
	} else if (mode == HV_PAUSE_EVERY) {
		report(exits == executed,
		       "%s: %llu PAUSE exits for %llu PAUSEs, every one intercepted",
		       what, exits, executed);
	} else if (exits == executed && executed) {
		report_skip(
			"%s: every PAUSE exited: the filter (count %u) is not emulated here",
			what, count);
	} else {
		report(count && exits <= executed / count + 8,
		       "%s: %llu PAUSE exits for %llu PAUSEs with filter count %u",
		       what, exits, executed, count);
	}
}

static void pause_body(void)
{
	u32 nr = smp_nr(), ran;
	unsigned long long before, after;

	report(boot_info->pause_mode <= HV_PAUSE_EVERY,
	       "pause_mode %u is known", boot_info->pause_mode);
	before = pause_exits();
	for (int i = 0; i < TIGHT_PAUSES; i++)
		cpu_relax();
	after = pause_exits();
	check_exits("tight loop", after - before, TIGHT_PAUSES, true);

	pauses = protected_count = 0;
	before = pause_exits();
	ran = on_all_vcpus(contend, NULL);
	after = pause_exits();
	report(ran == nr, "%u of %u vCPUs contended", ran, nr);
	report(protected_count == (unsigned long long)LOCK_ROUNDS * nr,
	       "lock-protected count %llu, want %llu", protected_count,
	       (unsigned long long)LOCK_ROUNDS * nr);
	if (nr > 1)
		check_exits("contended lock", after - before, pauses, false);
	else
		report_skip("one vCPU: the lock is never contended");
}

const struct scenario scn_pause = { "pause", "smp", NULL, pause_body, 0 };
