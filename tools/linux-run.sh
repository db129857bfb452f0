#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/linux-run.sh - `make linux-init`: Debian's kernel (tools/linux-kernel.sh,
# or LINUX_IMAGE=) with the initramfs of guest/linux-init
# (tools/mkinitramfs.sh) boots as a minhv guest under QEMU TCG (EPYC).
# Stage 1: one vCPU. Stage 2: four vCPUs in the guest's ACPI MADT, started
# by Linux through INIT-SIPI, with the vLAPIC's timer.
# Stage 3: eight vCPUs on four CPUs (issue 27, docs/SCHED.md), the stage 2
# checks and /init's lock-heavy workload (minhv.work=LINUX_WORK rounds,
# default 4: futexes, a pipe ring, fork + exec).
# STAGE=1, 2 or 3 runs one; the default runs all three, LINUX_SCHED=0
# only 1 and 2.
# A stage passes when the console shows "Run /init as init process", /init's
# marker and PASS line, minhv's "exit status 1" (isa-debug-exit value 0),
# minhv's own run passed and Linux printed none of the warnings below.
# Console logs: build/linux/console.log (stage 1), console-stage2.log,
# console-stage3.log.
# Exit status: 0 pass, 1 fail, 2 harness error, 3 no kernel (reason said).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
out=build/linux
timeout=${LINUX_TIMEOUT:-240}
timeout2=${LINUX_TIMEOUT2:-480}
timeout3=${LINUX_TIMEOUT3:-600}
work=${LINUX_WORK:-4}
extra=${LINUX_CMDLINE:-}
# Stage 3 is about 25 s under TCG; LINUX_SCHED=0 leaves it out.
all="1 2 3"
[ "${LINUX_SCHED:-1}" = 0 ] && all="1 2"
stages=${STAGE:-$all}

kernel=$(tools/linux-kernel.sh)
rc=$?
[ $rc = 0 ] || exit $([ $rc = 3 ] && echo 3 || echo 2)
initrd=$(tools/mkinitramfs.sh) || exit 2
[ -f build/minhv.efi ] || { echo "linux-run: build/minhv.efi not built (make all)" >&2; exit 2; }
mkdir -p "$out"

fail=0
check() { # log regex description
	if grep -Eq -- "$2" "$1"; then
		echo "linux-run: ok - $3"
	else
		echo "linux-run: FAIL - $3 (no line matching /$2/)"
		fail=1
	fi
}
check_no() { # log regex description
	if grep -Eq -- "$2" "$1"; then
		echo "linux-run: FAIL - $3"
		grep -Em3 -- "$2" "$1"
		fail=1
	else
		echo "linux-run: ok - $3"
	fi
}

# Both stages: the 16550 is the console; nokaslr: one layout every run;
# panic=-1: a panic reboots (a triple fault ends the guest) rather than
# hangs; printk.devkmsg=on: /init's /dev/kmsg lines are not rate limited.
# minhv itself appends tsc_early_khz=<the TSC rate it measured>: Linux has
# no PIT to calibrate the TSC against early (docs/GUESTS.md).
common="console=ttyS0 earlyprintk=serial,ttyS0 panic=-1 nokaslr printk.devkmsg=on"

run_stage() { # stage
	local st=$1 log cmdline smp vcpus t qrc
	if [ "$st" = 1 ]; then
		# One vCPU with the platform as Linux finds it (ACPI, the
		# LAPIC, the I/O APIC, HLT in idle): no work-arounds.
		log=$out/console.log smp=1 vcpus="" t=$timeout
		cmdline="$common"
	elif [ "$st" = 2 ]; then
		# Four vCPUs, likewise: the TSC needs no tsc=reliable since
		# minhv says it is invariant (docs/GUESTS.md).
		log=$out/console-stage2.log smp=4 vcpus=" vcpus=4" t=$timeout2
		cmdline="$common minhv.stage=2"
	else
		# Two vCPUs per CPU: preempted, blocked in HLT, woken by IPIs
		# and timers, PAUSE exits yielding (pause_yield=directed).
		log=$out/console-stage3.log smp=4 vcpus=" vcpus=8" t=$timeout3
		cmdline="$common minhv.stage=3 minhv.work=$work"
	fi
	cmdline="$cmdline${extra:+ $extra}"
	local opts="guest=\\linux\\vmlinuz initrd=\\linux\\initrd.gz cmdline=\"$cmdline\" guest_mem=256M pool=320M watchdog_ms=0$vcpus"
	rm -f "$log"
	echo "linux-run: stage $st: $kernel + $initrd, cmdline: $cmdline"
	tests/boot/run-qemu.sh --name "linux$st" --smp "$smp" --mem 1024 \
		--timeout "$t" --log "$log" --opts "$opts" \
		--file "$kernel:linux/vmlinuz" --file "$initrd:linux/initrd.gz"
	qrc=$?
	sed -i 's/\x1b\[[0-9;=]*[A-Za-z]//g; s/\r//g' "$log"
	check "$log" 'Run /init as init process' "stage $st: the kernel started /init"
	check "$log" 'minhv-init: hello from /init' "stage $st: /init's marker"
	check "$log" 'minhv-init: PASS: 0 check\(s\) failed' "stage $st: /init's checks passed"
	check "$log" '^svm: guest user: exit status 1$' "stage $st: minhv: guest exit status 1 (isa-debug-exit value 0)"
	check_no "$log" 'unchecked MSR access error' "stage $st: no unchecked MSR access"
	if [ "$st" = 3 ]; then
		check "$log" '^guest user: 8 vCPUs share 4 CPU\(s\)' "stage 3: minhv: 8 vCPUs share 4 CPUs"
		check "$log" 'smpboot: Total of 8 processors activated' "stage 3: Linux brought up 8 CPUs"
		check "$log" 'minhv-init: ok cpus_match_vcpus' "stage 3: /init sees the 8 vCPUs"
		check "$log" 'minhv-init: ok pinned_threads' "stage 3: a thread ran pinned on each CPU"
		check "$log" 'minhv-init: ok work' "stage 3: the workload (futexes, page drops, pipes, fork+exec) completed"
		check_no "$log" 'soft lockup|rcu.*(stall|self-detected)' "stage 3: no soft lockup or RCU stall"
	fi
	if [ "$st" = 2 ]; then
		check "$log" 'smpboot: Total of 4 processors activated' "stage 2: Linux brought up 4 CPUs"
		check "$log" 'minhv-init: ok cpus_match_vcpus' "stage 2: /init sees the 4 vCPUs"
		check "$log" 'minhv-init: ok pinned_threads' "stage 2: a thread ran pinned on each CPU"
		check "$log" 'minhv-init: ok sleep_1s' "stage 2: nanosleep(1 s) took 1 s +- 10 % by the TSC"
		check_no "$log" 'Marking TSC unstable|[Mm]arking clocksource .tsc. as unstable' "stage 2: the TSC stays stable"
		check_no "$log" 'APIC timer.*(calibration|disabled)|calibrat.*APIC.*fail' "stage 2: no APIC timer calibration failure"
		check_no "$log" 'soft lockup' "stage 2: no soft lockup"
	fi
	[ $qrc = 0 ] || { echo "linux-run: FAIL - stage $st: minhv's run did not pass (run-qemu.sh status $qrc)"; fail=1; }
	echo "linux-run: stage $st console log in $log"
}

for st in $stages; do
	case $st in
	1 | 2 | 3) run_stage "$st" ;;
	*) echo "linux-run: STAGE=$st: 1, 2 or 3" >&2; exit 2 ;;
	esac
done
[ $fail = 0 ] && echo "linux-run: PASS" || echo "linux-run: FAIL"
exit $fail
