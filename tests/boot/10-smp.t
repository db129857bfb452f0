#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/10-smp.t - SMP bring-up and IPIs under QEMU TCG:
# x2APIC and xAPIC, serial and parallel, Intel fence path, 1 and 288 CPUs.
# Boots run only the `hello` guest scenario (the rest is 30-scenarios.t's).
# MINHV_SKIP_288=1 skips the 288-CPU boot (minutes under TCG on few cores).
. "$(dirname "$0")/lib.sh"

smp_common() { # label cpus mode apic
	expect_rc 0 "$1: run passes"
	expect_log "^smp: $2 of $2 CPUs online \\($4, $3 bring-up\\) in [0-9]+ us" \
		"$1: $2 CPUs online in $4 mode, $3, with the bring-up time"
	ktap_valid "$1: KTAP block well formed, all ok"
	# smp.online: online == MADT usable == QEMU's -smp (fw_cfg)
	expect_ktap_ok smp.online
	expect_ktap_ok boot.madt_matches_qemu
	expect_ktap_ok smp.apic_mode
	expect_ktap_ok smp.apic_mode_all_cpus
	expect_ktap_ok smp.call_all_wait
	expect_ktap_ok ipi.fence_policy
	expect_no_log 'did not check in' "$1: no CPU left out"
	expect_log "^mtrr: all $2 CPUs verified equal to the boot CPU" \
		"$1: MTRRs replicated to all $2 CPUs"
}

boot smp4-x2apic --smp 4 --cpu EPYC,+x2apic --opts "tests=hello" --timeout 400
smp_common "smp 4 x2apic" 4 parallel x2APIC
expect_log '^ipi: x2APIC; fence before ICR writes off: AMD' \
	"smp 4 x2apic: AMD sends IPIs without the fence"
for t in smp.call_on_each smp.call_all_nowait ipi.self ipi.unicast \
	ipi.broadcast ipi.nmi; do
	expect_ktap_ok $t
done

boot smp4-xapic --smp 4 --cpu EPYC --opts "tests=hello" --timeout 400
smp_common "smp 4 xapic" 4 parallel xAPIC
expect_log '^ipi: xAPIC \(no x2APIC in CPUID\)' "smp 4 xapic: falls back to xAPIC MMIO"
expect_ktap_ok ipi.nmi

# Serial bring-up and the forced fence share one boot.
boot smp4-serial-fence-on --smp 4 --opts "smp=serial ipi_fence=on tests=hello" --timeout 400
smp_common "smp 4 serial, ipi_fence=on" 4 serial x2APIC
expect_log 'fence before ICR writes on: forced by ipi_fence=on' \
	"ipi_fence=on forces the fence on AMD"

boot smp4-intel --smp 4 --cpu Skylake-Server,+x2apic --opts "tests=hello" --timeout 400
smp_common "smp 4 intel" 4 parallel x2APIC
expect_log '^ipi: x2APIC; fence before ICR writes on: Intel' \
	"Intel model: IPIs are sent with MFENCE;LFENCE"
# No SVM on Intel (TCG emulates no VMX either): skipped with the reason.
expect_ktap_skip svm.enable "SVM.* is 0"
expect_ktap_skip svm.guest "no SVM"

boot smp1 --smp 1 --opts "tests=hello" --timeout 400
smp_common "smp 1" 1 parallel x2APIC
expect_ktap_skip ipi.unicast "one CPU"

if [ "${MINHV_SKIP_288:-0}" != 1 ]; then
	# x2APIC IDs above 255: q35 with an IOMMU with EIM, as real
	# hardware needs for them (TCG would also start them without it).
	# A 2 s check-in limit: 288 TCG vCPUs on a loaded 2-core host can
	# take more than the default 100 ms to start.
	boot smp288 --smp 288 --mem 2048 --timeout 1500 \
		--machine q35,kernel-irqchip=split --opts "tests=hello ap_timeout_ms=2000" \
		-- -device intel-iommu,intremap=on,eim=on
	smp_common "smp 288" 288 parallel x2APIC
	expect_log '^acpi: 288 processor entries: 288 enabled, .*[1-9][0-9]* x2APIC entries' \
		"smp 288: the MADT has x2APIC entries (IDs above 255)"
	expect_log '^acpi: enabled APIC IDs: 0-287' "smp 288: APIC IDs up to 287"
fi

done_testing
