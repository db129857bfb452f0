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
MOD_boot_prof := hv/boot_prof.c

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
MOD_host_uart := arch/uart.c
# The real trampoline, assembled by the hypervisor build.
MOD_trampoline := arch/trampoline_copy.c $(B)/arch/trampoline.o
# The real VMRUN stub, assembled against the CPU double (svm_stub.mk).
MOD_svm_stub := $(B)/unit-obj/arch/svm_fake.o

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
	hv/mtrr/verify.c \
	hv/mtrr/range.c tests/doubles/mtrr_hooks.c
MOD_park := hv/park/park.c hv/park/summary.c tests/doubles/park_hooks.c
MOD_spec_ctrl := hv/park/spec_ctrl.c hv/park/spec_ctrl_policy.c

# The virtualisation core, room by room (docs/ARCHITECTURE.md).
# hv/emul: the instruction decoder and the guest page-table walker.
MOD_emul_decode := hv/emul/decode.c
MOD_emul_walk := hv/emul/walk.c $(MOD_ptwalk)
# hv/platform: the guest platform's devices.
# The virtio disk: the queue walker, the block device, its registers.
MOD_virtio := hv/platform/virtq.c hv/platform/virtio_blk.c \
	hv/platform/virtio_mmio.c
MOD_platform := hv/platform/ports.c hv/platform/uart.c \
	hv/platform/debug_exit.c hv/platform/fw_cfg.c hv/platform/pm_timer.c \
	hv/platform/pic.c hv/platform/acpi_pm.c hv/platform/rtc.c \
	hv/platform/ioapic.c hv/platform/irq.c hv/platform/pit.c \
	hv/platform/kbc.c hv/platform/reset.c hv/platform/testdev.c \
	hv/platform/uart_fast.c \
	hv/platform/hpet.c hv/platform/mmio_map.c $(MOD_virtio)
# The I/O APIC alone, on the vLAPIC model.
MOD_vioapic := hv/platform/ioapic.c
# The PIT and HPET, pure (the host TSC from the CPU double).
MOD_pit_model := hv/platform/pit.c hv/platform/hpet.c
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
MOD_sched := hv/sched/sched.c tests/doubles/sched_hooks.c
MOD_npt := hv/vmcb/npt.c $(MOD_ptwalk)
MOD_asid := hv/vmcb/asid.c
MOD_exit_decode := hv/vmcb/exit_decode.c
# hv/vcpu: one vCPU's own state.
MOD_vcpu_spec := hv/vcpu/vcpu_spec.c
MOD_vcpu_fpu := hv/vcpu/vcpu_fpu.c
# hv/loader: the guest image formats.
MOD_multiboot := hv/loader/multiboot_info.c hv/loader/multiboot.c \
	hv/loader/place.c
MOD_elf := hv/loader/elf.c hv/loader/place.c
MOD_linux_boot := hv/loader/bzimage.c hv/loader/linux_boot.c \
	hv/loader/place.c
# hv/guest: the guest-facing side of the exit handlers (hypercalls, guest
# memory, console, vCPU operations and states, guest stop, ACPI S3, the
# vCPU services of hv/emul/vcpu_api.h) and MMIO emulation (with hv/emul).
MOD_guest_ops := hv/guest/hypercall.c hv/guest/mem.c hv/guest/console.c \
	hv/guest/stop.c hv/guest/vcpu_state.c hv/guest/vcpu_api.c \
	hv/guest/s3.c hv/guest/cpu_reset.c hv/guest/wait.c hv/vcpu/vcpu_ops.c \
	hv/vcpu/vcpu_pkrs.c
MOD_emul := hv/guest/mmio.c hv/vcpu/regs.c $(MOD_emul_walk) $(MOD_emul_decode)
MOD_guest_report := hv/guest/report.c
# Guest creation and teardown.
MOD_guest := hv/guest/guest.c $(MOD_boot_prof)
MOD_guest_pt := hv/guest/pt.c $(MOD_emul_walk)
# hv/view: guest-kind policy (Linux's CPUID and MSR view, the PMU MSRs).
MOD_view := hv/view/pmu.c hv/view/linux.c
# hv/svm: SVM enable, the exit handlers, the vLAPIC's exit handlers (the
# waits and injection need the SMP layer and stay out).
MOD_svm := hv/svm/svm.c
MOD_exits := hv/svm/exit_table.c hv/svm/exit_cpuid.c hv/svm/exit_msr.c \
	hv/svm/exit_io.c hv/svm/exit_io_str.c hv/svm/exit_misc.c \
	hv/svm/exit_invalid.c \
	hv/svm/exit_cache.c hv/svm/exit_excp.c hv/svm/exit_xsetbv.c \
	hv/svm/event_inject.c \
	$(MOD_view)
MOD_vlapic_exit := hv/svm/vlapic_exit.c hv/svm/vlapic_inject.c
# The run loop with its watchdog tick, the vLAPIC's waits and start-up,
# kicks (the world switch is tests/doubles/fake_vmrun.c).
MOD_vcpu_run := hv/svm/vcpu_run.c hv/svm/vcpu_watchdog.c \
	hv/svm/vlapic_vcpu.c hv/guest/vcpu_kick.c hv/svm/sched_cpu.c \
	$(MOD_boot_prof)

# hv/run: the default run.
MOD_run := hv/run/run.c

# hv/run: the verdict on a foreign guest's end.
MOD_run_verdict := hv/run/verdict.c

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
MOD_phrase := lib/phrase.c

# Doubles (tests/doubles) and fixtures shared by several suites.
MOD_fake_console := tests/doubles/fake_console.c
MOD_fake_cpu := tests/doubles/fake_cpu.c
MOD_fake_smp := tests/doubles/fake_smp_pthread.c
MOD_fake_svm := tests/doubles/fake_svm.c
MOD_fake_vmrun := tests/doubles/fake_vmrun.c
MOD_fake_trap := tests/doubles/fake_trap.c
MOD_acpi_fixture := tests/unit/acpi_fixture.c
MOD_svm_fixture := tests/unit/svm_fixture.c
MOD_run_fixture := tests/unit/run_fixture.c
MOD_sched_sim_fixture := tests/unit/sched_sim_fixture.c
MOD_vlapic_entry_fixture := tests/unit/vlapic_entry_fixture.c
MOD_vlapic_bus_fixture := tests/unit/vlapic_bus_fixture.c
MOD_snp_env := tests/unit/snp_env.c
MOD_park_fakes := tests/unit/park_fakes.c

# Module groups several suites link together.
SNP_UT_MODS := snp_env snp rmp rmpopt snp_scenario mm log ktap fmt features \
	fake_cpu fake_console
# A run loop and everything it runs over the world-switch double: the
# suites of tests/unit/vcpu_run.mk.
RUN_UT_MODS := run_fixture run vcpu_run guest exits exit_decode vmcb \
	vmcb_check vmcb_dump pause npt asid guest_ops guest_report guest_pt \
	platform platform_tables vlapic vlapic_exit emul elf multiboot \
	linux_boot features vcpu_fpu vcpu_spec spec_ctrl cpuid ras ktap mm \
	sched sched_runq park apic apic_icr apic_cal pgtable options svm log fmt \
	fake_vmrun fake_cpu fake_console fake_trap run_verdict

# What no unit suite links yet, each with the reason (Hafnium's
# src_not_testable_yet): `make check-layout` (check-unit-map in the
# Makefile) fails when a production source (arch/, boot/, hv/, lib/) is
# neither linked by a suite nor named here, and when a name here is linked
# after all or no longer exists. One file a line, the reason after it.
UNIT_NOT_TESTABLE_YET :=
UNIT_NOT_TESTABLE_YET += arch/cpu.c # the privileged instructions themselves; the suites link tests/doubles/fake_cpu.c in their place
UNIT_NOT_TESTABLE_YET += arch/gdt.c # LGDT and segment reloads in inline asm
UNIT_NOT_TESTABLE_YET += arch/idt.c # LIDT in inline asm; the suites register handlers through tests/doubles/fake_trap.c
UNIT_NOT_TESTABLE_YET += arch/fw_cfg.c # QEMU's fw_cfg port protocol; needs an fw_cfg double behind inb/outb
UNIT_NOT_TESTABLE_YET += boot/efi_file.c # gnu-efi file protocol (boot tests only)
UNIT_NOT_TESTABLE_YET += boot/efi_main.c # gnu-efi entry and hand-off (boot tests only)
UNIT_NOT_TESTABLE_YET += boot/efi_mem.c # gnu-efi memory map and ExitBootServices (boot tests only)
UNIT_NOT_TESTABLE_YET += boot/efi_options.c # gnu-efi load options (boot tests only); the parser is hv/options, tested
UNIT_NOT_TESTABLE_YET += boot/efi_services.c # UEFI boot and runtime services through the system table (boot tests only)
UNIT_NOT_TESTABLE_YET += hv/console.c # the host console; the suites capture output with tests/doubles/fake_console.c instead
UNIT_NOT_TESTABLE_YET += hv/stop.c # hv_stop() ends the run (isa-debug-exit, halt, reset); fake_console.c's longjmps
UNIT_NOT_TESTABLE_YET += hv/percpu_gdt.c # a CPU's GDT and TSS loaded (arch/gdt.c)
UNIT_NOT_TESTABLE_YET += hv/run/main.c # hv_main, the whole boot in order; its steps are tested one by one
UNIT_NOT_TESTABLE_YET += hv/smp/ap.c # an AP's first C code, entered from the trampoline on its own stack
UNIT_NOT_TESTABLE_YET += hv/smp/smp.c # INIT-SIPI-SIPI to real CPUs; plan, policy and boot state machine are tested (smp.mk)
UNIT_NOT_TESTABLE_YET += hv/smp/time.c # tsc_calibrate() over the real reference clocks; the calibration itself is tested (tsc_cal.mk)
UNIT_NOT_TESTABLE_YET += hv/time/refclock.c # HPET, PM timer and PIT reads; needs clock doubles behind MMIO and port I/O
UNIT_NOT_TESTABLE_YET += lib/string.c # memcpy/memset/strlen would replace the C library's (and ASan's) in a host binary
UNIT_NOT_TESTABLE_YET += hv/selftest/bench.c # boot self-tests and benchmarks: tests themselves, run by tests/boot/
UNIT_NOT_TESTABLE_YET += hv/selftest/exit_bench.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/ipi_bench.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/mtrr_ktap.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/park_check.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/park_mtrr_check.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/smp_ktap.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/svm_suite.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/sched_suite.c # ditto
UNIT_NOT_TESTABLE_YET += hv/selftest/table.c # ditto (the stage table; suites record stages with their own selftest_run())
UNIT_NOT_TESTABLE_YET += hv/selftest/vcpu_park_check.c # ditto
