# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/modules.mk - the module map: each unit suite's <name>_MODS lists
# module names, and MOD_<module> below is the one place a module's sources
# are listed. A new module is one line here; a new source joins its module.

# lib/ and the hypervisor core (hv/*.c). A module's test-only hooks
# (tests/doubles/*_hooks.c, state_hooks.h) are listed with it: the unit
# build links them, minhv never does.
MOD_fmt := lib/fmt.c
MOD_log := hv/log.c
MOD_mm := hv/mm.c tests/doubles/mm_hooks.c
MOD_ktap := hv/ktap.c tests/doubles/ktap_hooks.c
MOD_percpu := hv/percpu.c
MOD_features := hv/features.c
MOD_trap := hv/trap.c

# arch/
MOD_apic_icr := arch/apic_icr.c
MOD_pgtable := arch/pgtable.c
# The one page-table walker and the host identity map built and split with
# the builder and the walker.
MOD_ptwalk := arch/ptwalk.c
MOD_paging := arch/paging.c $(MOD_pgtable) $(MOD_ptwalk)
MOD_apic := arch/apic.c arch/apic_x2apic.c arch/apic_xapic.c
MOD_ioapic := arch/ioapic.c hv/run/ioapic.c
MOD_barrier := arch/barrier.c
# The real trampoline, assembled by the hypervisor build.
MOD_trampoline := arch/trampoline_copy.c $(B)/arch/trampoline.o

# hv/ subsystems below the virtualisation core
# The guest CPUID model (allow-list, topology from the vCPU).
MOD_cpuid := hv/cpuid/host.c hv/cpuid/model.c hv/cpuid/allow.c \
	hv/cpuid/topology.c hv/cpuid/xsave.c
MOD_acpi := hv/acpi/acpi.c hv/acpi/madt.c hv/acpi/spcr.c hv/acpi/print.c \
	hv/acpi/timers.c
MOD_options := hv/options/options.c hv/options/table.c hv/options/value.c \
	hv/options/cpulist.c
MOD_smp_boot := hv/smp/boot.c
MOD_smp_plan := hv/smp/plan.c
MOD_smp_policy := hv/smp/policy.c
MOD_apic_cal := hv/smp/apic_cal.c
# TSC calibration (hv/time/) and the host's RAS handling (hv/ras/).
MOD_tsc_cal := hv/time/tsc_cal.c
MOD_ras := hv/ras/mce.c hv/ras/nmi.c hv/ras/defer.c hv/ras/report.c
MOD_ipi := hv/smp/ipi.c
MOD_mtrr := hv/mtrr/mtrr.c hv/mtrr/state.c hv/mtrr/policy.c hv/mtrr/sync.c \
	hv/mtrr/range.c tests/doubles/mtrr_hooks.c
MOD_park := hv/park/park.c hv/park/summary.c
MOD_spec_ctrl := hv/park/spec_ctrl.c hv/park/spec_ctrl_policy.c

# The virtualisation core, room by room (docs/ARCHITECTURE.md).
# hv/emul: the instruction decoder and the guest page-table walker.
MOD_emul_decode := hv/emul/decode.c
MOD_emul_walk := hv/emul/walk.c $(MOD_ptwalk)
# hv/platform: the guest platform's devices.
MOD_platform := hv/platform/ports.c hv/platform/uart.c \
	hv/platform/debug_exit.c hv/platform/fw_cfg.c hv/platform/pm_timer.c \
	hv/platform/pic.c hv/platform/acpi_pm.c hv/platform/rtc.c
MOD_platform_tables := hv/platform/acpi_tables.c hv/platform/pm_timer.c \
	hv/platform/fw_cfg.c hv/platform/pic.c
# hv/vlapic: the virtual local APIC, a pure model.
MOD_vlapic := hv/vlapic/vlapic.c hv/vlapic/vlapic_mmio.c \
	hv/vlapic/vlapic_irq.c hv/vlapic/vlapic_timer.c hv/vlapic/vlapic_ipi.c \
	hv/vlapic/vlapic_msr.c
# hv/vmcb: the VMCB and what it points at.
MOD_vmcb := hv/vmcb/vmcb_build.c hv/vmcb/vmcb_pm.c
MOD_vmcb_check := hv/vmcb/vmcb_check.c
MOD_vmcb_dump := hv/vmcb/vmcb_dump.c
MOD_pause := hv/vmcb/pause.c
# hv/sched: the run queues' decisions (pure) and the CPU sets.
MOD_sched_runq := hv/sched/runq.c hv/sched/cpuset.c
MOD_sched := hv/sched/sched.c
MOD_npt := hv/vmcb/npt.c $(MOD_ptwalk)
MOD_exit_decode := hv/vmcb/exit_decode.c
# hv/vcpu: one vCPU's own state.
MOD_vcpu_spec := hv/vcpu/vcpu_spec.c
MOD_vcpu_fpu := hv/vcpu/vcpu_fpu.c
# hv/loader: the guest image formats.
MOD_multiboot := hv/loader/multiboot_info.c hv/loader/multiboot.c
MOD_elf := hv/loader/elf.c
MOD_linux_boot := hv/loader/bzimage.c hv/loader/linux_boot.c
# hv/guest: the guest-facing side of the exit handlers (hypercalls, guest
# memory, console, vCPU operations and states, guest stop, ACPI S3, the
# vCPU services of hv/emul/vcpu_api.h) and MMIO emulation (with hv/emul).
MOD_guest_ops := hv/guest/hypercall.c hv/guest/mem.c hv/guest/console.c \
	hv/guest/stop.c hv/guest/vcpu_state.c hv/guest/vcpu_api.c \
	hv/guest/s3.c hv/guest/cpu_reset.c hv/vcpu/vcpu_ops.c \
	hv/vcpu/vcpu_pkrs.c
MOD_emul := hv/guest/mmio.c hv/vcpu/regs.c $(MOD_emul_walk) $(MOD_emul_decode)
MOD_guest_report := hv/guest/report.c
MOD_guest_pt := hv/guest/pt.c $(MOD_emul_walk)
# hv/view: guest-kind policy (Linux's CPUID and MSR view, the PMU MSRs).
MOD_view := hv/view/pmu.c hv/view/linux.c
# hv/svm: SVM enable, the exit handlers, the vLAPIC's exit handlers (the
# waits and injection need the SMP layer and stay out).
MOD_svm := hv/svm/svm.c
MOD_exits := hv/svm/exit_table.c hv/svm/exit_cpuid.c hv/svm/exit_msr.c \
	hv/svm/exit_io.c hv/svm/exit_misc.c hv/svm/exit_invalid.c \
	hv/svm/exit_cache.c hv/svm/exit_excp.c hv/svm/exit_xsetbv.c \
	$(MOD_view)
MOD_vlapic_exit := hv/svm/vlapic_exit.c

# hv/snp, and the SNP self-test the SNP suites run
MOD_rmp := hv/snp/rmp.c hv/snp/rmp_hw.c hv/snp/rmp_model.c \
	tests/doubles/rmp_model_hooks.c
MOD_rmpopt := hv/snp/rmpopt.c hv/snp/rmpopt_pass.c hv/snp/rmpopt_stats.c \
	hv/snp/rmpopt_topo.c
MOD_snp := hv/snp/snp.c hv/snp/guest.c hv/snp/fw.c hv/snp/host_map.c
MOD_snp_scenario := hv/selftest/snp_scenario.c

# guest/
MOD_guest_select := guest/select.c
MOD_select := lib/select.c

# Doubles (tests/doubles) and fixtures shared by several suites.
MOD_fake_console := tests/doubles/fake_console.c
MOD_fake_cpu := tests/doubles/fake_cpu.c
MOD_fake_smp := tests/doubles/fake_smp_pthread.c
MOD_fake_trap := tests/doubles/fake_trap.c
MOD_acpi_fixture := tests/unit/acpi_fixture.c
MOD_svm_fixture := tests/unit/svm_fixture.c
MOD_snp_env := tests/unit/snp_env.c
MOD_park_fakes := tests/unit/park_fakes.c

# Module groups several suites link together.
SNP_UT_MODS := snp_env snp rmp rmpopt snp_scenario mm log ktap fmt features \
	fake_cpu fake_console
