# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/modules.mk - the module map: each unit suite's <name>_MODS lists
# module names, and MOD_<module> below is the one place a module's sources
# are listed. A new module is one line here; a new source joins its module.

# lib/ and the hypervisor core (hv/*.c)
MOD_fmt := lib/fmt.c
MOD_log := hv/log.c
MOD_mm := hv/mm.c
MOD_ktap := hv/ktap.c
MOD_percpu := hv/percpu.c
MOD_features := hv/features.c
MOD_trap := hv/trap.c

# arch/
MOD_apic_icr := arch/apic_icr.c
MOD_pgtable := arch/pgtable.c
MOD_paging := arch/paging.c
MOD_apic := arch/apic.c arch/apic_x2apic.c arch/apic_xapic.c
MOD_ioapic := arch/ioapic.c hv/ioapic.c
MOD_barrier := arch/barrier.c
# The real trampoline, assembled by the hypervisor build.
MOD_trampoline := arch/trampoline_copy.c $(B)/arch/trampoline.o

# hv/ subsystems
MOD_acpi := hv/acpi/acpi.c hv/acpi/madt.c hv/acpi/spcr.c hv/acpi/print.c \
	hv/acpi/timers.c
MOD_options := hv/options/options.c hv/options/table.c hv/options/value.c
MOD_smp_boot := hv/smp/boot.c
MOD_smp_plan := hv/smp/plan.c
MOD_smp_policy := hv/smp/policy.c
MOD_apic_cal := hv/smp/apic_cal.c
# TSC calibration (hv/time/) and the host's RAS handling (hv/ras/).
MOD_tsc_cal := hv/time/tsc_cal.c
MOD_ras := hv/ras/mce.c hv/ras/nmi.c hv/ras/defer.c hv/ras/report.c
MOD_ipi := hv/smp/ipi.c
MOD_mtrr := hv/mtrr/mtrr.c hv/mtrr/state.c hv/mtrr/policy.c hv/mtrr/sync.c \
	hv/mtrr/range.c
MOD_park := hv/park/park.c hv/park/summary.c
MOD_spec_ctrl := hv/park/spec_ctrl.c hv/park/spec_ctrl_policy.c
MOD_vmcb := hv/svm/vmcb_build.c hv/svm/vmcb_pm.c
MOD_vmcb_check := hv/svm/vmcb_check.c
MOD_vmcb_dump := hv/svm/vmcb_dump.c
MOD_pause := hv/svm/pause.c
MOD_npt := hv/svm/npt.c
MOD_svm := hv/svm/svm.c
MOD_exit_decode := hv/svm/exit_decode.c
MOD_exits := hv/svm/exit_table.c hv/svm/exit_cpuid.c hv/svm/exit_msr.c \
	hv/svm/exit_io.c hv/svm/exit_misc.c hv/svm/exit_invalid.c \
	hv/svm/exit_cache.c hv/svm/exit_excp.c hv/svm/exit_msr_pmu.c \
	hv/svm/linux_view.c hv/svm/exit_xsetbv.c
# The guest platform's devices (hv/platform/) and MMIO emulation (hv/emul/).
MOD_platform := hv/platform/ports.c hv/platform/uart.c \
	hv/platform/debug_exit.c hv/platform/fw_cfg.c hv/platform/pm_timer.c \
	hv/platform/pic.c hv/platform/acpi_pm.c hv/platform/rtc.c \
	hv/platform/cpu_reset.c
MOD_vlapic := hv/platform/lapic.c hv/platform/lapic_mmio.c \
	hv/platform/lapic_irq.c hv/platform/lapic_timer.c hv/platform/lapic_ipi.c \
	hv/platform/lapic_msr.c
# The vLAPIC's exit handlers (the waits and injection need the SMP layer).
MOD_vlapic_exit := hv/platform/lapic_exit.c
MOD_emul_decode := hv/emul/decode.c
MOD_emul_walk := hv/emul/walk.c
MOD_emul := hv/emul/mmio.c hv/emul/regs.c $(MOD_emul_walk) $(MOD_emul_decode)
MOD_platform_tables := hv/platform/acpi_tables.c hv/platform/pm_timer.c \
	hv/platform/fw_cfg.c hv/platform/pic.c
MOD_multiboot := hv/guest/multiboot_info.c hv/guest/multiboot.c
# The guest-facing side of the exit handlers (hypercalls, guest memory,
# console, vCPU operations, guest stop).
MOD_guest_ops := hv/guest/hypercall.c hv/guest/mem.c hv/guest/console.c \
	hv/guest/vcpu_ops.c hv/guest/stop.c hv/guest/vcpu_pkrs.c
MOD_guest_report := hv/guest/report.c
MOD_guest_pt := hv/guest/pt.c
MOD_vcpu_spec := hv/guest/vcpu_spec.c
MOD_vcpu_fpu := hv/guest/vcpu_fpu.c
MOD_elf := hv/guest/elf.c
MOD_linux_boot := hv/guest/bzimage.c hv/guest/linux_boot.c
MOD_rmp := hv/snp/rmp.c hv/snp/rmp_hw.c hv/snp/rmp_model.c
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
