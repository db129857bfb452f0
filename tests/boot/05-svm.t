#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/05-svm.t - SVM enable, the first guest on EPYC TCG
# with 1 and 4 vCPUs, PAUSE policy lines, and the clean skip on Intel.
. "$(dirname "$0")/lib.sh"

skip() { # reason: one TAP skip (parts that need a layer not in this build)
	_n=$((_n + 1))
	echo "ok $_n # SKIP $1"
}

boot svm-smp1 --smp 1
expect_rc 0 "smp 1: guest run passes"
expect_ktap_ok svm.enable
expect_ktap_ok svm.guest_create
expect_ktap_ok svm.guest_run
expect_ktap_ok svm.pool_restored
expect_log '^svm: .*no NRIP: RIP advanced by known lengths' "TCG: no NRIP, known lengths used"
expect_log '^guest [a-z]+: pause: no PauseFilter .*PAUSE not intercepted' "pause policy logged with its reason"
expect_log '^guest [a-z]+: .*ASID [1-9]' "non-zero ASID"
expect_log '^guest [a-z]+ stopped: exited with status 0' "guest ended through HC_EXIT"
expect_log '^\[[a-z]+\] ' "guest console lines carry the guest's name"
watchdog=1
grep -q 'watchdog unavailable' "$LOG" && watchdog=0

boot svm-smp4 --smp 4
expect_rc 0 "smp 4: guest run passes"
if grep -Eq '^ok [0-9]+ smp\.online' "$LOG"; then
	for id in 0 1 2 3; do
		expect_log "vCPU $id of 4" "smp 4: vCPU $id printed its id"
	done
else
	skip "no SMP layer in this build: one vCPU only"
fi
expect_ktap_ok svm.guest_run
expect_ktap_ok svm.pool_restored
ktap_valid "smp 4: KTAP block well formed, all ok"

# 40,000 PAUSE exits are not progress for the watchdog (a PAUSE loop is
# what it catches); give a loaded host time to emulate them all. The RSB
# fill, off under TCG, is forced on here: its 32 CALLs after every one of
# those exits run on a real (emulated) CPU, not only in the unit tests.
boot svm-pause-on --smp 1 \
	--opts "pause_intercept=on watchdog_ms=20000 rsb_fill=on"
expect_rc 0 "pause_intercept=on: run passes"
expect_log 'pause_intercept=on: every PAUSE exits' "forced PAUSE intercept without the filter"
expect_log '^spec: RSB fill after #VMEXIT: on \(rsb_fill=on\)' \
	"rsb_fill=on: the fill runs after every exit, and the log says why"

boot svm-intel --smp 2 --cpu Skylake-Server,+x2apic
expect_rc 0 "Intel CPU model: the run still ends cleanly"
expect_log 'svm: cannot use SVM: CPUID 0x80000001:ECX\[2\] \(SVM\) is 0' "the reason SVM is unusable is printed"
expect_ktap_skip svm.enable 'SVM\) is 0'
expect_ktap_skip svm.guest 'no SVM'
ktap_valid "Intel: KTAP block well formed"

# Hostile guests: each ends only itself, with the reason; the pool is whole.
hostile() { # name asm-body
	local d=$logdir/hostile-$1
	mkdir -p "$d"
	printf 'bits 64\nglobal _start\n_start:\n%b\n' "$2" >"$d/g.asm"
	nasm -f elf64 "$d/g.asm" -o "$d/g.o" &&
		ld -N -nostdlib -static -Ttext=0x100000 -e _start "$d/g.o" \
			-o "$d/g.elf" 2>/dev/null
	boot "svm-hostile-$1" --smp 2 --file "$d/g.elf:hostile.elf" \
		--opts 'guest=\hostile.elf watchdog_ms=500'
	expect_rc 1 "hostile $1: the run ends (fail status: the guest failed)"
	expect_ktap_fail svm.guest_run
	expect_ktap_ok svm.pool_restored
}
if [ "$watchdog" = 0 ]; then
	skip "no LAPIC timer in this build: endless-loop guest not run"
else
	hostile loop 'jmp $'
	expect_log 'stopped: vCPU 0: no progress for [0-9]+ ms \(endless loop\?\)' "endless loop: stopped by the watchdog"
fi
hostile vmrun 'mov rax, 0x1000\nvmrun'
expect_log 'svm-insn 1 ' "VMRUN from the guest: #UD injected"
expect_log 'stopped: vCPU 0: triple fault \(SHUTDOWN\)' "no IDT: #UD becomes a triple fault, guest stopped"
hostile hsave 'mov ecx, 0xc0010117\nxor eax, eax\nxor edx, edx\nwrmsr'
expect_log 'wrmsr MSR 0xc0010117 \(SVM control, host-critical\) -> #GP' "VM_HSAVE_PA write refused with #GP"

done_testing
