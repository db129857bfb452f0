#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/50-linux.t - Debian's own kernel (tools/linux-kernel.sh) boots
# as a minhv guest to /init (guest/linux-init) under TCG, twice: stage 1 on
# one vCPU without interrupts, stage 2 on four vCPUs that Linux starts
# through INIT-SIPI from the guest's ACPI MADT, with the vLAPIC timer (a
# thread pinned to each CPU, a 1 s nanosleep checked against the TSC). Each
# ends through isa-debug-exit with status 1 (/init's checks passed). SKIP,
# with the reason, when no kernel can be had (no apt, no network).
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1

reason=$(tools/linux-kernel.sh 2>&1 >/dev/null)
krc=$?
if [ $krc = 3 ]; then
	echo "1..0 # SKIP no Linux kernel: $(printf '%s' "$reason" | tail -n1)"
	exit 0
fi
out=$(tools/linux-run.sh 2>&1)
rc=$?
_ok "$([ $rc = 0 ] && echo 0 || echo 1)" "make linux passes" \
	"tools/linux-run.sh exited $rc" "$(printf '%s' "$out" | grep -E 'FAIL|error' | head -n 8)"

LOG=build/linux/console.log
expect_log 'Run /init as init process' "the kernel ran /init"
expect_log 'minhv-init: hello from /init' "/init printed its marker"
expect_log 'minhv-init: cpus: sysconf\(_SC_NPROCESSORS_ONLN\) 1, /proc/cpuinfo 1' "Linux sees one CPU"
expect_log '^guest user stopped: isa-debug-exit: value 0, exit status 1' "/init ended the guest through port 0xf4 with value 0"
expect_log '^ok [0-9]+ linux.exit_status$' "minhv reports the exit status as a pass"
expect_no_log 'unchecked MSR access error' "no unchecked MSR access in Linux"
expect_no_log '(Kernel panic|Oops|BUG:)' "no kernel panic, oops or BUG"

LOG=build/linux/console-stage2.log
expect_log '^linux: tsc_early_khz=[0-9]+ appended' "stage 2: minhv told Linux its TSC rate"
expect_log 'ACPI: APIC 0x00000000000E0240' "stage 2: Linux found the MADT through the RSDP at 0xE0000"
expect_log 'TSC deadline timer available' "stage 2: Linux uses the TSC-deadline timer"
expect_log 'smpboot: Total of 4 processors activated' "stage 2: Linux brought up 4 CPUs"
expect_log 'minhv-init: cpus: sysconf\(_SC_NPROCESSORS_ONLN\) 4, /proc/cpuinfo 4' "stage 2: /init sees four CPUs"
expect_log 'minhv-init: ok cpus_match_vcpus: Linux 4, minhv vCPUs 4' "stage 2: as many CPUs as minhv's vCPUs"
expect_log 'minhv-init: ok pinned_threads: 4 of 4' "stage 2: a pinned thread ran on each CPU"
expect_log 'minhv-init: ok sleep_1s' "stage 2: nanosleep(1 s) took 1 s +- 10 % by the TSC"
expect_log '^guest user stopped: isa-debug-exit: value 0, exit status 1' "stage 2: /init ended the guest with value 0"
expect_log '^ok [0-9]+ linux.exit_status$' "stage 2: minhv reports the exit status as a pass"
expect_no_log 'Marking TSC unstable|[Mm]arking clocksource .tsc. as unstable' "stage 2: the TSC stays stable"
expect_no_log 'APIC timer.*(calibration|disabled)|calibrat.*APIC.*fail' "stage 2: no APIC timer calibration failure"
expect_no_log 'soft lockup' "stage 2: no soft lockup"
expect_no_log 'unchecked MSR access error' "stage 2: no unchecked MSR access in Linux"
expect_no_log '(Kernel panic|Oops|BUG:)' "stage 2: no kernel panic, oops or BUG"
done_testing
