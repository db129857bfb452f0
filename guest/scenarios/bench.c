// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/bench.c - guest-observed exit round trips per kind (RDTSC
 * around one exiting instruction), printed as "bench: exit.<kind>" lines for
 * tools/bench.sh. Runs only when minhv sets HV_BI_BENCH (option bench=1). */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"

#define ROUNDS 200
#define MSR_APIC_BASE 0x1b
#define UNUSED_PORT 0x80 /* reads all-ones through minhv's IOIO exit */

struct stat {
	unsigned long long n, min, max, sum;
};

static void stat_add(struct stat *s, u64 d)
{
	if (!s->n || d < s->min)
		s->min = d;
	if (d > s->max)
		s->max = d;
	s->sum += d;
	s->n++;
}

static void stat_print(const char *kind, const struct stat *s)
{
	printf("bench: exit.%s n=%llu min=%llu avg=%llu max=%llu tsc\n", kind,
	       s->n, s->min, s->n ? s->sum / s->n : 0, s->max);
}

enum kind { K_CPUID, K_VMMCALL, K_IOIO, K_MSR, K_PAUSE, K_NR };
static const char *const kind_name[K_NR] = { "cpuid", "vmmcall", "ioio", "msr",
					     "pause" };

static void one_exit(enum kind k)
{
	switch (k) {
	case K_CPUID:
		cpuid(0, 0);
		break;
	case K_VMMCALL:
		hypercall(HC_VCPU_INFO, 0, 0, 0, 0, 0);
		break;
	case K_IOIO:
		inb(UNUSED_PORT);
		break;
	case K_MSR:
		rdmsr(MSR_APIC_BASE);
		break;
	default:
		cpu_relax();
		break;
	}
}

/* HLT wake: vCPU 1 halts with IF=1; vCPU 0 wakes it by HC_VCPU_ONLINE and
 * the delta runs from before that call to vCPU 1's first instruction. */
static volatile u64 woke_at;
static volatile u32 hlt_round;

static void halter(void *unused)
{
	(void)unused;
	for (u32 i = 0; i < ROUNDS; i++) {
		while (hlt_round != i)
			cpu_relax();
		__asm__ volatile("sti; hlt; cli" ::: "memory");
		woke_at = rdtsc();
		hlt_round = i + 1 + 0x10000; /* "woken" marker for round i */
	}
}

static void bench_hlt(void)
{
	struct stat s = { 0 };
	u64 t0;

	if (smp_nr() < 2) {
		printf("bench: exit.hlt_wake skipped=one_vcpu\n");
		return;
	}
	hlt_round = 0;
	if (vcpu_run(1, halter, NULL)) {
		printf("bench: exit.hlt_wake skipped=vcpu_run_failed\n");
		return;
	}
	for (u32 i = 0; i < ROUNDS; i++) {
		/* -HC_EBUSY until vCPU 1 has actually halted. */
		do {
			t0 = rdtsc();
		} while (hc_vcpu_online(1) != 0);
		while (hlt_round != i + 1 + 0x10000)
			cpu_relax();
		stat_add(&s, woke_at - t0);
		hlt_round = i + 1;
	}
	report(vcpu_wait(1), "HLT-wake partner finished");
	stat_print("hlt_wake", &s);
}

static const char *bench_supported(void)
{
	return boot_info->flags & HV_BI_BENCH ? NULL : "bench=1 not set";
}

static void bench_body(void)
{
	for (int k = 0; k < K_NR; k++) {
		struct stat s = { 0 };

		if (k == K_PAUSE && boot_info->pause_mode == HV_PAUSE_NONE) {
			printf("bench: exit.pause skipped=not_intercepted\n");
			continue;
		}
		one_exit(k); /* warm up */
		for (int i = 0; i < ROUNDS; i++) {
			u64 t0 = rdtsc();

			one_exit(k);
			stat_add(&s, rdtsc() - t0);
		}
		stat_print(kind_name[k], &s);
	}
	bench_hlt();
	report(true, "benchmarks ran");
}

const struct scenario scn_bench = { "bench", "bench", bench_supported,
				    bench_body, 0 };
