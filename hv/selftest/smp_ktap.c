// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/smp_ktap.c - boot checks for SMP and IPIs, as KTAP results: CPUs online
 * vs the MADT, APIC mode on every CPU, cross-calls reach every CPU (with and
 * without wait), unicast/broadcast/self IPIs and NMIs arrive, fence policy. */
#include "hv/selftest/selftest.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/idt.h"
#include "arch/msr.h"
#include "hv/features.h"
#include "hv/smp/ipi_raw.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "hv/smp/smp.h"
#include "hv/smp/time.h"

#define WAIT_US 5000000 /* generous: 288 vCPUs under TCG are slow */

struct visit {
	u32 count;
	u32 bad_apic; /* CPUs whose APIC ID or mode disagreed */
	u8 seen[]; /* [g_ncpus] */
};

static void visit(void *arg)
{
	struct visit *v = arg;
	struct percpu *pc = this_cpu();
	bool x2 = rdmsr(MSR_APIC_BASE) & APIC_BASE_EXTD;

	__atomic_add_fetch(&v->seen[pc->cpu], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&v->count, 1, __ATOMIC_RELEASE);
	if (apic_id() != pc->apic_id ||
	    x2 != (g_apic->mode == APIC_MODE_X2APIC))
		__atomic_add_fetch(&v->bad_apic, 1, __ATOMIC_RELAXED);
}

/* Spin (serving our own call queue) until the u32 or u64 counter at p
 * reaches want, or the time is up. */
static bool wait_for_n(const volatile void *p, unsigned size, u64 want)
{
	u64 end = tsc_now_us() + WAIT_US;

	for (;;) {
		u64 v = size == sizeof(u64) ? *(const volatile u64 *)p :
					      *(const volatile u32 *)p;

		if (v >= want)
			return true;
		if (tsc_now_us() > end)
			return false;
		if (!ipi_call_poll())
			cpu_relax();
	}
}
#define wait_for(p, want) wait_for_n((p), sizeof(*(p)), (want))

static u64 visit_pages(void)
{
	return ALIGN_UP(sizeof(struct visit) + g_ncpus, PAGE_SIZE) / PAGE_SIZE;
}

/* Zeroed, from the pool: no limit on the number of CPUs. */
static struct visit *new_visit(void)
{
	struct visit *v = page_alloc_ptr(visit_pages());

	CHECK(v);
	return v;
}

static void free_visit(struct visit *v)
{
	page_free(ptr_to_hpa(v), visit_pages());
}

static u32 missing(const struct visit *v, u32 want)
{
	u32 n = 0;

	for (u32 i = 0; i < g_ncpus; i++)
		n += v->seen[i] != want;
	return n;
}

static void check_calls(void)
{
	struct visit *v = new_visit();
	int ran;
	u32 bad;

	ran = ipi_call_all(visit, v, true, true);
	ktap_ok("smp.call_all_wait",
		ran == (int)g_ncpus && v->count == g_ncpus && !missing(v, 1),
		"ran on %d, counted %u of %u CPUs", ran, v->count, g_ncpus);
	ktap_ok("smp.apic_mode_all_cpus", v->bad_apic == 0,
		"%u CPUs disagree on APIC ID or mode (%s)", v->bad_apic,
		apic_mode_name());

	free_visit(v);
	v = new_visit();
	bad = 0;
	for (u32 i = 0; i < g_ncpus; i++)
		bad += ipi_call_on(i, visit, v, true) != 0;
	ktap_ok("smp.call_on_each", !bad && !missing(v, 1),
		"%u calls refused, %u CPUs not reached", bad, missing(v, 1));

	free_visit(v);
	v = new_visit();
	ran = ipi_call_all(visit, v, false, false);
	ktap_ok("smp.call_all_nowait",
		wait_for(&v->count, g_ncpus - 1) && v->seen[0] == 0 &&
			missing(v, 1) == 1,
		"%u of %u other CPUs ran it", v->count, g_ncpus - 1);
	ktap_ok("smp.call_offline_refused",
		ipi_call_on(g_ncpus, visit, v, true) < 0,
		"a call to CPU %u (not online) was accepted", g_ncpus);
	free_visit(v);
}

static u64 test_ipis(u32 cpu)
{
	return __atomic_load_n(
		&((struct smp_cpu *)g_percpu[cpu]->smp)->test_ipis,
		__ATOMIC_ACQUIRE);
}

static void check_ipis(void)
{
	u32 self = ipi_this_cpu(), lost = 0;
	u64 before;

	/* Self-IPI: taken once interrupts are on (PIC and LINT0 masked). */
	before = test_ipis(self);
	ipi_self(VEC_IPI_TEST);
	irq_enable();
	ktap_ok("ipi.self",
		wait_for(&((struct smp_cpu *)this_cpu()->smp)->test_ipis,
			 before + 1),
		"self-IPI (vector %#x) not taken", VEC_IPI_TEST);
	irq_disable();

	if (g_ncpus < 2) {
		ktap_skip("ipi.unicast", "one CPU");
		ktap_skip("ipi.broadcast", "one CPU");
		ktap_skip("ipi.nmi", "one CPU");
		return;
	}
	for (u32 i = 1; i < g_ncpus; i++) {
		before = test_ipis(i);
		ipi_send(i, VEC_IPI_TEST);
		lost += !wait_for(
			&((struct smp_cpu *)g_percpu[i]->smp)->test_ipis,
			before + 1);
	}
	ktap_ok("ipi.unicast", !lost, "%u of %u CPUs did not take the IPI",
		lost, g_ncpus - 1);

	/* Every other CPU is idle: each has taken exactly one test IPI per
	 * unicast so far, so "one more" is the broadcast. */
	lost = 0;
	ipi_broadcast(VEC_IPI_TEST);
	for (u32 i = 1; i < g_ncpus; i++)
		lost += !wait_for(
			&((struct smp_cpu *)g_percpu[i]->smp)->test_ipis, 2);
	ktap_ok("ipi.broadcast", !lost,
		"%u of %u CPUs missed the all-but-self IPI", lost, g_ncpus - 1);

	lost = 0;
	for (u32 i = 1; i < g_ncpus; i++) {
		struct smp_cpu *t = g_percpu[i]->smp;
		u32 want = __atomic_load_n(&t->nmi_seen, __ATOMIC_ACQUIRE) + 1;

		ipi_nmi(i);
		lost += !wait_for(&t->nmi_seen, want);
	}
	ktap_ok("ipi.nmi", !lost, "%u of %u CPUs did not take the NMI", lost,
		g_ncpus - 1);
}

void smp_ktap(void)
{
	bool want = g_smp.fence_opt == IPI_FENCE_ON ||
		    (g_smp.fence_opt == IPI_FENCE_AUTO &&
		     g_features.vendor != VENDOR_AMD &&
		     g_features.vendor != VENDOR_HYGON);

	/* Under QEMU the count is also checked against -smp (fw_cfg). */
	ktap_ok("smp.online",
		g_smp.online == g_smp.listed &&
			(!g_smp.qemu_cpus || g_smp.online == g_smp.qemu_cpus),
		"%u CPUs online, the MADT lists %u usable, QEMU -smp %u",
		g_smp.online, g_smp.listed, g_smp.qemu_cpus);
	ktap_ok("smp.apic_mode",
		(g_apic->mode == APIC_MODE_X2APIC) == g_features.x2apic,
		"running %s, CPUID x2APIC=%d", apic_mode_name(),
		g_features.x2apic);
	ktap_ok("smp.dense_ids",
		ipi_this_cpu() == 0 && ipi_online_count() == g_ncpus,
		"boot CPU index %u, %u online of %u", ipi_this_cpu(),
		ipi_online_count(), g_ncpus);
	check_calls();
	check_ipis();
	/* Auto policy: fence on Intel (and unknown), never on AMD/Hygon, the
	 * option overrides; and the send path in use matches the decision. */
	ktap_ok("ipi.fence_policy",
		g_smp.fence.fence == want &&
			(g_apic->mode != APIC_MODE_X2APIC ||
			 g_apic->fenced == g_smp.fence.fence),
		"vendor %s: fence %s (%s), send path %s",
		features_vendor_name(g_features.vendor),
		g_smp.fence.fence ? "on" : "off", g_smp.fence.why,
		g_apic->name);
}
