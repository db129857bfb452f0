// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/smp.c - SMP bring-up on the boot CPU: APIC mode and fence decided once,
 * per-CPU areas and stacks from the page pool, the trampoline installed
 * below 1 MiB, then the INIT-SIPI-SIPI state machine (hv/smp/boot.c). */
#include "hv/smp/smp.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/idt.h"
#include "arch/msr.h"
#include "arch/trampoline.h"
#include "hv/acpi/acpi.h"
#include "hv/boot_prof.h"
#include "hv/features.h"
#include "hv/smp/ipi_internal.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/percpu.h"
#include "hv/smp/boot.h"
#include "hv/smp/plan.h"
#include "hv/smp/time.h"
#include "arch/cr.h"
#include "hv/stop.h"

#define SIPI_GAP_US 200 /* MP spec B.4: between the two SIPIs */

struct smp_result g_smp;
extern u64 g_ap_cr0, g_ap_cr4;
extern void (*g_ap_cpu_init)(void);

void smp_opts_from(struct smp_opts *so, const struct options *o)
{
	smp_opts_default(so);
	so->mode = o->smp == BRINGUP_SERIAL ? SMP_SERIAL : SMP_PARALLEL;
	so->fence = o->ipi_fence == TRI_ON  ? IPI_FENCE_ON :
		    o->ipi_fence == TRI_OFF ? IPI_FENCE_OFF :
					      IPI_FENCE_AUTO;
	so->init_delay_us = o->init_delay_us;
	if (o->ap_timeout_ms)
		so->timeout_ms = o->ap_timeout_ms;
	so->maxcpus = o->maxcpus;
}

static struct percpu *new_percpu(u32 cpu, u32 apic_id)
{
	struct percpu *pc = page_alloc_ptr(1);
	hpa_t stack = page_alloc(STACK_PAGES, 1);

	if (!pc || !stack.v || !ipi_cpu_alloc(pc))
		panic("smp: out of memory for CPU %u (APIC ID %u)", cpu,
		      apic_id);
	pc->self = pc;
	pc->cpu = cpu;
	pc->apic_id = apic_id;
	pc->stack_top = stack.v + STACK_PAGES * PAGE_SIZE;
	for (int i = 0; i < 3; i++) {
		hpa_t ist = page_alloc(IST_PAGES, 1);

		if (!ist.v)
			panic("smp: out of memory for IST stacks");
		pc->ist_top[i] = ist.v + IST_PAGES * PAGE_SIZE;
	}
	return pc;
}

/* --- the machine side of the bring-up state machine --- */

struct hw_ctx {
	u8 sipi_page;
};

static void hw_init(void *c, u32 apic_id)
{
	struct apic_icr r = apic_icr_init(apic_id);

	(void)c;
	if (apic_send(&r))
		pr_err("smp: cannot send INIT to APIC ID %u\n", apic_id);
}

static void hw_sipi(void *c, u32 apic_id)
{
	struct hw_ctx *h = c;
	struct apic_icr r = apic_icr_sipi(apic_id, h->sipi_page);

	if (apic_send(&r))
		pr_err("smp: cannot send SIPI to APIC ID %u\n", apic_id);
}

/* Slot i is g_percpu[i + 1] (slot order = plan order, boot CPU first).
 * An AP is in once it set `online`, the last step of smp_ap_entry(), not
 * when it claimed AP_STAGE_ONLINE: between the two it still runs its own
 * set-up (spec_ctrl_cpu_init()), and compact() keeps only CPUs whose
 * `online` is set. Counting the claim let a slow AP (64 TCG vCPUs on a
 * busy 2-core host) be counted in and then dropped without a word. */
static bool hw_checked_in(void *c, u32 i)
{
	(void)c;
	return __atomic_load_n(&g_percpu[i + 1]->online, __ATOMIC_ACQUIRE);
}

static bool hw_abandon(void *c, u32 i)
{
	struct percpu *pc = g_percpu[i + 1];
	u32 old = __atomic_load_n(&pc->boot_stage, __ATOMIC_ACQUIRE);

	(void)c;
	while (old != AP_STAGE_ONLINE) {
		if (__atomic_compare_exchange_n(
			    &pc->boot_stage, &old, AP_STAGE_ABANDONED, false,
			    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return true;
	}
	return false;
}

static u64 hw_now_us(void *c)
{
	(void)c;
	return tsc_now_us();
}

/* An AP the boot CPU gave up on after it had claimed AP_STAGE_ONLINE
 * (hw_abandon() failed: it counts as in) sets `online` moments later:
 * wait for it, at most timeout_us, so compact() does not drop it; say so
 * if it never comes. */
static void wait_claimed_online(const struct ap_slot *slots, u32 n,
				u64 timeout_us)
{
	u64 end = tsc_now_us() + timeout_us;

	for (u32 i = 0; i < n; i++) {
		struct percpu *pc = g_percpu[i + 1];

		if (slots[i].state != AP_ONLINE)
			continue;
		while (!__atomic_load_n(&pc->online, __ATOMIC_ACQUIRE) &&
		       tsc_now_us() < end)
			cpu_relax();
		if (!__atomic_load_n(&pc->online, __ATOMIC_ACQUIRE))
			pr_err("smp: CPU with APIC ID %u checked in but did not come online; left out\n",
			       slots[i].apic_id);
	}
}

/* Keep the online CPUs only, renumbered 0..n-1 in plan order. */
static u32 compact(u32 n)
{
	u32 k = 0;

	for (u32 i = 0; i < n; i++) {
		struct percpu *pc = g_percpu[i];

		if (!pc->online)
			continue; /* left out; its memory stays allocated */
		pc->cpu = k;
		g_percpu[k++] = pc;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	g_ncpus = k;
	return k;
}

static void choose_apic(const struct acpi_info *a, const struct smp_opts *o)
{
	g_smp.fence_opt = o->fence;
	g_smp.fence = smp_ipi_fence_decide(g_features.vendor, o->fence);
	apic_select(g_features.x2apic, hpa(a->lapic_addr));
	apic_set_fence(g_smp.fence.fence);
	apic_cpu_init(VEC_SPURIOUS, true);
	if (g_apic->mode == APIC_MODE_X2APIC)
		pr_info("ipi: x2APIC; fence before ICR writes %s: %s\n",
			g_smp.fence.fence ? "on" : "off", g_smp.fence.why);
	else
		pr_info("ipi: xAPIC (no x2APIC in CPUID); MMIO ICR needs no "
			"fence (would be %s: %s)\n",
			g_smp.fence.fence ? "on" : "off", g_smp.fence.why);
}

static void fill_trampoline(struct tramp_params *p, u32 n,
			    void (*ap_cpu_init)(void))
{
	u64 cr3 = read_cr3();

	CHECK(cr3 < (1ULL << 32)); /* loaded in 32-bit mode */
	p->cr3 = (u32)cr3;
	p->efer = (u32)((rdmsr(MSR_EFER) & (EFER_NXE | EFER_SCE)) | EFER_LME);
	/* LA57 cannot change once paging is on: an AP must start in the
	 * BSP's paging mode. MCE: no window without it. */
	p->cr4 = (u32)(read_cr4() & (CR4_MCE | CR4_LA57));
	p->entry64 = (u64)(uintptr_t)smp_ap_entry;
	p->percpus = (u64)(uintptr_t)g_percpu;
	p->ncpus = n;
	p->off_apic_id = offsetof(struct percpu, apic_id);
	p->off_stack = offsetof(struct percpu, stack_top);
	p->off_stage = offsetof(struct percpu, boot_stage);
	g_ap_cpu_init = ap_cpu_init;
	g_ap_cr0 = read_cr0();
	g_ap_cr4 = read_cr4();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void smp_init(const struct smp_env *e, const struct smp_opts *o)
{
	const struct acpi_info *a = e->acpi;
	struct percpu *bsp = this_cpu();
	struct smp_plan plan = { 0 };
	struct smp_boot_cfg cfg;
	struct hw_ctx hc = { (u8)(e->trampoline.v >> PAGE_SHIFT) };
	struct smp_boot_hw hw = { hw_init,    hw_sipi,	 hw_checked_in,
				  hw_abandon, hw_now_us, &hc };
	struct smp_boot b;
	struct ap_slot *slots;
	struct tramp_params *tp;
	u64 t0;

	if (!g_tsc_khz) {
		enum prof_phase was = prof_mark(PROF_TSC_CAL);

		tsc_calibrate(a);
		prof_mark(was);
	}
	ipi_init();
	choose_apic(a, o);
	bsp->apic_id = apic_id();
	if (!bsp->smp && !ipi_cpu_alloc(bsp))
		panic("smp: out of memory");

	plan.apic_ids = page_alloc_ptr(
		ALIGN_UP((a->ncpus + 1) * 4ULL, PAGE_SIZE) / PAGE_SIZE);
	CHECK(plan.apic_ids);
	smp_plan_build(a->cpus, a->ncpus, bsp->apic_id,
		       g_apic->mode == APIC_MODE_X2APIC, &plan);
	g_smp.listed = acpi_usable_cpus(a);
	g_smp.qemu_cpus = e->qemu_cpus;
	if (o->maxcpus && plan.n > o->maxcpus) {
		pr_info("smp: maxcpus=%u: starting %u of %u CPUs\n", o->maxcpus,
			o->maxcpus, plan.n);
		plan.n = o->maxcpus;
	}
	g_smp.planned = plan.n;

	g_percpu =
		page_alloc_ptr(ALIGN_UP(plan.n * 8ULL, PAGE_SIZE) / PAGE_SIZE);
	slots = page_alloc_ptr(ALIGN_UP(plan.n * sizeof(*slots), PAGE_SIZE) /
			       PAGE_SIZE);
	CHECK(g_percpu && slots);
	bsp->cpu = 0;
	bsp->boot_stage = AP_STAGE_ONLINE;
	bsp->online = 1;
	g_percpu[0] = bsp;
	for (u32 i = 1; i < plan.n; i++) {
		g_percpu[i] = new_percpu(i, plan.apic_ids[i]);
		slots[i - 1].apic_id = plan.apic_ids[i];
	}
	g_ncpus = plan.n;

	cfg = (struct smp_boot_cfg){
		.parallel = o->mode == SMP_PARALLEL,
		.init_delay_us = smp_init_delay_us(
			g_features.vendor, g_features.family, o->init_delay_us),
		.sipi_gap_us = SIPI_GAP_US,
		.timeout_us = o->timeout_ms * 1000,
		.sipi_max = o->sipi_max,
	};
	g_smp.mode = o->mode;
	g_smp.init_delay_us = cfg.init_delay_us;
	pr_info("smp: starting %u APs (%s, INIT delay %u us, timeout %u ms, "
		"up to %u SIPIs), trampoline at %#llx\n",
		plan.n - 1, cfg.parallel ? "parallel" : "serial",
		cfg.init_delay_us, o->timeout_ms, cfg.sipi_max,
		(unsigned long long)e->trampoline.v);

	tp = trampoline_install(e->trampoline);
	fill_trampoline(tp, plan.n, e->ap_cpu_init);
	t0 = rdtsc();
	smp_boot_begin(&b, &cfg, &hw, slots, plan.n - 1);
	while (!smp_boot_poll(&b))
		cpu_relax();
	wait_claimed_online(slots, b.n, cfg.timeout_us);
	g_smp.bringup_cycles = rdtsc() - t0;
	g_smp.alive = __atomic_load_n(&tp->alive, __ATOMIC_ACQUIRE);
	g_smp.failed = b.failed;
	g_smp.resends = b.resends;
	for (u32 i = 0; i < b.n; i++)
		g_smp.sipis += slots[i].sipis;
	smp_boot_report(&b);

	g_smp.online = compact(plan.n);
	/* Broadcast shorthands only reach CPUs we own when nobody is missing. */
	ipi_set_broadcast_ok(g_smp.online == g_smp.listed && !plan.too_high);
	g_stop_others = ipi_stop_others;
	kprintf("smp: %u of %u CPUs online (%s, %s bring-up) in %llu us "
		"(%llu cycles), %u SIPIs for %u APs\n",
		g_smp.online, g_smp.listed, apic_mode_name(),
		cfg.parallel ? "parallel" : "serial",
		(unsigned long long)tsc_to_us(g_smp.bringup_cycles),
		(unsigned long long)g_smp.bringup_cycles, g_smp.sipis,
		g_smp.planned - 1);
}
