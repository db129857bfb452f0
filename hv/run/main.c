// SPDX-License-Identifier: GPL-2.0-only
/* hv/run/main.c - the hypervisor's life on the boot CPU after the hand-off:
 * own tables, inventory, then each subsystem in dependency order, then the
 * KTAP report and the end of the run. */
#include "hv/run/boot_info.h"
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/gdt.h"
#include "arch/idt.h"
#include "arch/paging.h"
#include "arch/spinlock.h"
#include "hv/smp/ipi.h"
#include "hv/boot_prof.h"
#include "hv/features.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/percpu.h"
#include "hv/mtrr/mtrr.h"
#include "hv/park/park.h"
#include "hv/sched/sched.h"
#include "hv/selftest_hook.h"
#include "hv/smp/smp.h"
#include "hv/snp/snp.h"
#include "hv/park/spec_ctrl.h"
#include "hv/stop.h"
#include "hv/guest/guest.h"
#include "hv/run/ioapic.h"
#include "hv/ras/ras.h"
#include "hv/run/run.h"
#include "hv/vmcb/npt.h"
#include "hv/svm/svm.h"

struct options g_options;
static hpa_t host_cr3; /* what CR3 holds: the PML4, or a PML5 above it */
static hpa_t host_pml4; /* the identity map's 4-level root */

/* The legacy 8259s stay masked: minhv uses only the local APICs. */
static void mask_pic(void)
{
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
}

static struct percpu *bsp_percpu(struct boot_info *bi)
{
	struct percpu *pc = page_alloc_ptr(1);

	CHECK(pc);
	pc->cpu = 0;
	pc->stack_top = bi->bsp_stack_top;
	for (int i = 0; i < 3; i++) {
		hpa_t ist = page_alloc(IST_PAGES, 1);

		CHECK(ist.v);
		pc->ist_top[i] = ist.v + IST_PAGES * PAGE_SIZE;
	}
	return pc;
}

static void boot_checks(struct boot_info *bi)
{
	const struct acpi_info *a = &bi->acpi;
	u32 usable = acpi_usable_cpus(a);

	ktap_ok("boot.handoff", read_cr3() == host_cr3.v,
		"CR3 %#llx is not minhv's page table %#llx",
		(unsigned long long)read_cr3(), (unsigned long long)host_cr3.v);
	ktap_ok("boot.madt", usable > 0, "MADT lists no usable CPU");
	if (bi->fw_cfg_cpus)
		ktap_ok("boot.madt_matches_qemu", usable == bi->fw_cfg_cpus,
			"MADT has %u usable CPUs, QEMU says %u", usable,
			bi->fw_cfg_cpus);
	else
		ktap_skip("boot.madt_matches_qemu",
			  "not under QEMU (no fw_cfg)");
	ktap_ok("boot.pool",
		mm_free_pages() > 0 && mm_free_pages() <= mm_total_pages(),
		"page pool: %llu free of %llu",
		(unsigned long long)mm_free_pages(),
		(unsigned long long)mm_total_pages());
	ktap_ok("boot.trampoline",
		bi->trampoline.v && bi->trampoline.v < 0x100000 &&
			IS_ALIGNED(bi->trampoline.v, PAGE_SIZE),
		"trampoline page %#llx", (unsigned long long)bi->trampoline.v);
}

/* Runs on every AP once parking is armed: returning lets it see that and
 * move into park_cpu_loop(). */
static void park_kick(void *arg)
{
	(void)arg;
}

static void flush_tlb_fn(void *arg)
{
	(void)arg;
	write_cr3(read_cr3()); /* no host entry is global (PTE_G) */
}

/* snp_host_map_4k() hook: split minhv's identity map around spa, then no
 * CPU may keep the old 2 MiB/1 GiB translation (RMP checks use it). */
static int host_split_4k(hpa_t spa)
{
	static spinlock_t lock;
	int r;

	spin_lock(&lock);
	r = paging_split_4k(host_pml4, spa.v, &mm_pt_alloc);
	spin_unlock(&lock);
	if (r > 0)
		ipi_call_all(flush_tlb_fn, NULL, true, true);
	return r; /* tables taken from the pool, or -ENOMEM */
}

/* A self-test stage, its time in the profile's PROF_SELFTEST. */
static void stage(enum selftest_stage s, struct selftest_ctx *st)
{
	enum prof_phase was = prof_mark(PROF_SELFTEST);

	selftest_run(s, st);
	prof_mark(was);
}

_Noreturn void hv_main(struct boot_info *bi)
{
	u64 t0 = rdtsc();
	struct percpu *bsp;
	struct smp_opts so;
	struct smp_env se;
	bool guest_bad = false;
	struct guest_params guest;
	struct selftest_ctx st = {
		.bi = bi,
		.tsc_hv_main = t0,
		.bench = g_options.bench,
		.tests = g_options.tests,
		.guest_tests = g_options.tests,
	};

	prof_mark(PROF_HV_INIT);
	host_pml4 = paging_build_identity(bi->phys_top, g_features.page1g,
					  &mm_pt_alloc);
	if (!host_pml4.v)
		panic("out of memory building the host page tables");
	/* UEFI may hand over in 5-level paging, and CR4.LA57 cannot change
	 * while paging is on (APM vol 2 3.1.3): minhv's tables follow the
	 * firmware's mode, decided before the first CR3 write (a PML4 walked
	 * as a PML5 triple-faults). The APs set LA57 in the trampoline;
	 * nested tables follow the host's mode (hv/vmcb/npt.c). */
	host_cr3 = paging_root(host_pml4, read_cr4(), &mm_pt_alloc);
	if (!host_cr3.v)
		panic("out of memory building the 5-level host page table");
	g_npt_5level = read_cr4() & CR4_LA57;
	write_cr3(host_cr3.v);
	idt_init();
	bsp = bsp_percpu(bi);
	percpu_install(bsp);
	percpu_gdt_init(bsp);
	idt_load();
	ras_boot_init(); /* the #MC handler, then CR4.MCE and the banks */
	mask_pic();

	kprintf("minhv: running on own GDT/IDT/page tables after ExitBootServices (%u tr%s)\n",
		bi->ebs_tries, bi->ebs_tries == 1 ? "y" : "ies");
	features_log(&g_features);
	/* SNP enabling (hv/snp) is to pass whether it will turn SNP on. */
	spec_ctrl_boot(false, g_options.rsb_fill);
	spec_ctrl_cpu_init();
	acpi_print_inventory(&bi->acpi);
	if (g_npt_5level)
		pr_info("paging: the firmware handed over in 5-level paging (CR4.LA57): host and nested page tables are 5-level\n");
	/* Before any CPU enables interrupts (the APs, then the BSP). */
	ioapic_quiesce(&bi->acpi);
	pr_info("memory: %llu MiB RAM in %u map entries, top %#llx; minhv owns %llu KiB (pool %llu KiB at %#llx, %llu KiB free)\n",
		(unsigned long long)(bi->ram_bytes >> 20), bi->mmap_entries,
		(unsigned long long)bi->phys_top,
		(unsigned long long)(bi->pool_pages * 4 + 4),
		(unsigned long long)(bi->pool_pages * 4),
		(unsigned long long)bi->pool_base.v,
		(unsigned long long)(mm_free_pages() * 4));
	pr_info("boot: efi_main -> ExitBootServices %llu cycles, -> hv_main %llu cycles\n",
		(unsigned long long)(bi->tsc_exit_boot - bi->tsc_efi_main),
		(unsigned long long)(t0 - bi->tsc_exit_boot));

	smp_opts_from(&so, &g_options);
	se = (struct smp_env){
		.acpi = &bi->acpi,
		.trampoline = bi->trampoline,
		.qemu_cpus = bi->fw_cfg_cpus,
		.ap_cpu_init = spec_ctrl_cpu_init, /* SPEC_CTRL on each AP */
	};
	prof_mark(PROF_SMP); /* TSC calibration inside: PROF_TSC_CAL */
	smp_init(&se, &so);

	boot_checks(bi);
	stage(ST_AFTER_SMP, &st);

	/* MTRRs in lock step on every CPU, before anything enables SNP. */
	prof_mark(PROF_MTRR);
	mtrr_set_flush_option(g_options.mtrr_flush);
	st.mtrr_init_rc = mtrr_init();
	stage(ST_AFTER_MTRR, &st);

	/* From here on a CPU with nothing to run is parked. */
	prof_mark(PROF_PARK);
	if (park_init(g_options.park == PARK_MWAIT))
		panic("out of memory for the parking state");
	/* A run queue of vCPUs per CPU (docs/SCHED.md). */
	if (sched_init())
		panic("out of memory for the run queues");
	smp_aps_idle(park_cpu_loop);
	ipi_call_all(park_kick, NULL, true, false);
	stage(ST_AFTER_PARK, &st);

	stage(ST_BEFORE_GUEST, &st);
	prof_mark(PROF_SVM);
	/* SVM on every online CPU, then the guest boot/ handed over. */
	guest.image = NULL;
	if (svm_init()) {
		ktap_skip("svm.enable", "%s", svm_why_not());
		ktap_skip("svm.guest", "no SVM: %s", svm_why_not());
	} else {
		ktap_ok("svm.enable", true, "SVM enabled");
		guest_bad = run_guest_image(bi, st.guest_tests, &guest) != 0;
	}
	st.guest_params = guest.image ? &guest : NULL;
	prof_print(); /* the profile ended at the guest's first VMRUN */
	selftest_run(ST_AFTER_GUEST, &st);

	/* SEV-SNP last: after SMP and MTRR set-up (SNP_EN locks the MTRRs). */
	snp_host_map_hook(host_split_4k);
	/* RMPOPT passes cover RAM only, not MMIO up to phys_top. */
	st.snp_init_rc = snp_init((enum rmpopt_mode)g_options.rmpopt,
				  bi->ram_top ? bi->ram_top : bi->phys_top);
	if (st.snp_init_rc)
		ktap_ok("snp.init", false, "snp_init failed");
	selftest_run(ST_AFTER_SNP, &st);

	/* Machine checks and unexpected NMIs: the account, and a result. */
	ras_report();
	/* Any failure, lost result or failed guest run fails the run. */
	hv_stop(ktap_finish() || guest_bad ? STOP_FAIL : STOP_PASS);
}
