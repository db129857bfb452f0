// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/ipi_bench.c - the IPI benchmark (bench=1), in the style of ipi-bench:
 * ping-pong (cross-call round trip to one CPU) and an all-to-all mesh of
 * unicast calls, each with the x2APIC fence forced off and on. TSC cycles.
 * The mesh is the shape of Linux's "mesh-ipi" figure (every CPU sends to
 * every other; IPIs per second): one ICR write per call, so calls = IPIs. */
#include "hv/selftest/selftest.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/idt.h"
#include "hv/smp/ipi_raw.h"
#include "hv/log.h"
#include "hv/percpu.h"
#include "hv/smp/smp.h"
#include "hv/smp/time.h"

#define PING_ROUNDS 2000
#define MESH_TOTAL 200000 /* calls in the whole mesh, spread over pairs */

struct mesh {
	u32 per_target;
	u32 started, done;
	u64 t_first, t_last;
};

struct bench_row {
	u64 ping_avg, ping_min;
	u64 mesh_calls, mesh_cycles;
};

static void nop(void *arg)
{
	(void)arg;
}

static void ping(u32 cpu, struct bench_row *r)
{
	u64 t0 = rdtsc(), min = ~0ULL;

	for (u32 i = 0; i < PING_ROUNDS; i++) {
		u64 a = rdtsc();

		ipi_call_on(cpu, nop, NULL, true);
		a = rdtsc() - a;
		if (a < min)
			min = a;
	}
	r->ping_avg = (rdtsc() - t0) / PING_ROUNDS;
	r->ping_min = min;
}

static void atomic_min(u64 *p, u64 v)
{
	u64 old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v < old &&
	       !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void atomic_max(u64 *p, u64 v)
{
	u64 old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v > old &&
	       !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

/* Runs on every CPU at once: per_target unicast calls to each other CPU,
 * each with its own ICR write, then wait until all of them have run. */
static void mesh_worker(void *arg)
{
	struct mesh *m = arg;
	u32 self = ipi_this_cpu(), pending = 0;
	u64 t0;

	__atomic_add_fetch(&m->started, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&m->started, __ATOMIC_ACQUIRE) < g_ncpus)
		if (!ipi_call_poll())
			cpu_relax();
	t0 = rdtsc();
	atomic_min(&m->t_first, t0);
	for (u32 k = 0; k < m->per_target; k++) {
		for (u32 c = 0; c < g_ncpus; c++) {
			if (c == self)
				continue;
			__atomic_add_fetch(&pending, 1, __ATOMIC_RELAXED);
			ipi_call_enqueue(c, nop, NULL, &pending);
			ipi_send(c, VEC_IPI_CALL);
		}
	}
	ipi_call_wait(&pending);
	atomic_max(&m->t_last, rdtsc());
	__atomic_add_fetch(&m->done, 1, __ATOMIC_RELEASE);
}

static void mesh(struct bench_row *r)
{
	u32 pairs = g_ncpus * (g_ncpus - 1);
	struct mesh m = { .per_target = MESH_TOTAL / pairs ?: 1,
			  .t_first = ~0ULL };

	ipi_call_all(mesh_worker, &m, false, true);
	while (__atomic_load_n(&m.done, __ATOMIC_ACQUIRE) < g_ncpus)
		if (!ipi_call_poll())
			cpu_relax();
	r->mesh_calls = (u64)m.per_target * pairs;
	r->mesh_cycles = m.t_last - m.t_first;
}

static u64 per_sec(u64 n, u64 cycles)
{
	return cycles ? n * g_tsc_khz * 1000 / cycles : 0;
}

void ipi_bench(void)
{
	const struct apic_ops *saved = g_apic;
	struct bench_row row[2] = { 0 };

	if (g_ncpus < 2) {
		pr_info("bench: ipi: needs two CPUs, skipped\n");
		return;
	}
	for (int f = 0; f < 2; f++) {
		apic_set_fence(f);
		ping(1, &row[f]);
		mesh(&row[f]);
	}
	g_apic = saved;
	kprintf("bench: ipi, %s, %u CPUs, TSC %llu kHz\n", apic_mode_name(),
		g_ncpus, (unsigned long long)g_tsc_khz);
	kprintf("bench: %-33s %12s %12s\n", "", "fence=off", "fence=on");
	kprintf("bench: ping-pong cpu0<->cpu1 avg cycles %12llu %12llu\n",
		(unsigned long long)row[0].ping_avg,
		(unsigned long long)row[1].ping_avg);
	kprintf("bench: ping-pong cpu0<->cpu1 min cycles %12llu %12llu\n",
		(unsigned long long)row[0].ping_min,
		(unsigned long long)row[1].ping_min);
	kprintf("bench: mesh cycles per call             %12llu %12llu\n",
		(unsigned long long)(row[0].mesh_cycles / row[0].mesh_calls),
		(unsigned long long)(row[1].mesh_cycles / row[1].mesh_calls));
	kprintf("bench: mesh calls per second            %12llu %12llu\n",
		(unsigned long long)per_sec(row[0].mesh_calls,
					    row[0].mesh_cycles),
		(unsigned long long)per_sec(row[1].mesh_calls,
					    row[1].mesh_cycles));
	for (int f = 0; f < 2; f++)
		kprintf("bench-result: ipi fence=%s ping_avg_cycles=%llu "
			"ping_min_cycles=%llu mesh_calls=%llu mesh_cycles=%llu\n",
			f ? "on" : "off", (unsigned long long)row[f].ping_avg,
			(unsigned long long)row[f].ping_min,
			(unsigned long long)row[f].mesh_calls,
			(unsigned long long)row[f].mesh_cycles);
	/* tools/bench.sh: IPI/s = ipis * tsc_khz * 1000 / tsc; under -icount
	 * shift=5 the TSC is 32 per instruction (all CPUs together), so
	 * tsc / 32 / ipis is the instructions the whole machine spent per IPI,
	 * sender, receiver and waiting included. */
	for (int f = 0; f < 2; f++)
		kprintf("bench-result: ipi-mesh fence=%s cpus=%u ipis=%llu tsc=%llu tsc_khz=%llu\n",
			f ? "on" : "off", g_ncpus,
			(unsigned long long)row[f].mesh_calls,
			(unsigned long long)row[f].mesh_cycles,
			(unsigned long long)g_tsc_khz);
}
