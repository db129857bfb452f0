#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/30-scenarios.t - the default suite at 1 and 4 CPUs
# (vCPU offline/online x50 with parking, HLT wake-up), each hostile scenario
# in a guest of its own plus lifecycle, a user ELF and a broken one.
. "$(dirname "$0")/lib.sh"

boot scn-smp1 --smp 1
expect_rc 0 "smp 1: default suite passes"
ktap_valid "smp 1: KTAP block well formed"
expect_ktap_skip vcpu_online "needs at least 2 vCPUs"
expect_ktap_skip hlt_wake "needs at least 2 vCPUs"

boot scn-smp4 --smp 4
expect_rc 0 "smp 4: default suite passes"
ktap_valid "smp 4: KTAP block well formed"
expect_ktap_ok vcpu_online
expect_ktap_ok hlt_wake
expect_ktap_ok park.vcpu_offline_parked
expect_ktap_skip park.vcpu_wake_spec_ctrl_base "IBRS not enumerated"
expect_log '^svm: vCPU 1: offline ([5-9][0-9]|[0-9]{3,}) times, CPU parked ([5-9][0-9]|[0-9]{3,}) times while offline, ([1-9][0-9]*) while halted' \
	"vCPU 1 went offline >= 50 times, its CPU parked each time, and parked while halted"

# Hostile set and lifecycle: each in a fresh guest, pool whole after each.
boot scn-all --smp 2 --opts "tests=all"
expect_rc 0 "tests=all: run passes"
ktap_valid "tests=all: KTAP block well formed"
for h in read write svm triple_fault cli_loop storm report_flood ctrl_chars invd ac_loop \
	cr0_nw cpuid_loop gp_loop console_flood rep_outsb vcpu_race \
	xstate_dirty xstate debugregs xsetbv_bad; do
	expect_ktap_ok "hostile.$h"
done
expect_log '^svm: guest read .* stopped: .*nested page fault at GPA .* outside guest memory' "read outside memory: reason printed"
expect_log '^svm: guest triple_fault .* stopped: .*triple fault' "triple fault: reason printed"
expect_log '^svm: guest cli_loop .* stopped: .*no progress' "endless CLI loop: watchdog reason printed"
expect_log '^svm: guest cr0_nw .* stopped: .*VMRUN failed .*CR0.NW set without CR0.CD' "CR0.NW without CD: the failed VMRUN names the rule"
expect_log '^svm: guest cpuid_loop .* stopped: .*run-time limit of 1000 ms reached' "CPUID loop: stopped by the run-time limit"
expect_log '^svm: guest gp_loop .* stopped: .*run-time limit of 1000 ms reached' "#GP loop: stopped by the run-time limit"
expect_log '^warning: guest console_flood: console flood: output beyond [0-9]+ bytes/s dropped' "console flood: reported once when it starts"
expect_log '^svm: guest console_flood .* stopped: .*run-time limit .*; console flood: [0-9]+ bytes dropped' "console flood: dropped bytes counted in the stop reason"
expect_ktap_ok hostile_rep_outsb # ESI/ECX used, >= 1024 exits for 4 MiB
expect_log '^warning: guest rep_outsb: console flood: output beyond [0-9]+ bytes/s dropped' "4 MiB REP OUTSB: the console stays bounded (excess dropped)"
expect_ktap_skip hostile_vcpu_race "needs at least 3 vCPUs" # at --smp 2; run below
expect_ktap_ok hostile_invd # the guest's own checks: each instruction exited
expect_ktap_skip hostile_ac_loop "needs a CPL 3 environment"
expect_log '^svm: guest report_flood .* stopped: exited with status 1; results: 599 results beyond the plan' "report flood: results beyond the plan flagged"
expect_log '^\[ctrl_chars\] esc\?\[2J\?\[31mred bel\? bs\? del\? csi\?1m osc\?\]0;title\? reset\?c end' "control characters: console shows '?'"
expect_log '^ok [0-9]+ hostile_ctrl_chars # SKIP esc\?\[2J' "control characters: KTAP diagnostic shows '?'"
expect_no_log $'\x1b[]c]' "control characters: no raw ESC from a guest on the console"
# Nothing of the previous guest's vector state, XCR0 or DR0-DR3 is visible
# to the next guest on the same CPU; XSETBV exits and is checked.
expect_ktap_ok hostile_xstate_dirty
expect_ktap_ok hostile_xstate
expect_ktap_ok hostile_debugregs
expect_ktap_ok hostile_xsetbv_bad
expect_ktap_ok hostile.next_guest_runs
expect_ktap_ok lifecycle

# Two vCPUs race HC_VCPU_START on a third, 2000 rounds: winners == starts,
# no loser's arguments. Slow under TCG when the host is busy.
boot scn-race --smp 3 --opts "tests=hostile_vcpu_race guest_time_ms=280000" --timeout 300
expect_rc 0 "vCPU start race: run passes"
expect_ktap_ok hostile_vcpu_race
expect_log '^\[guest\] hostile_vcpu_race: 2000 rounds, [0-9]+ starts' "vCPU start race: every round ran"

# A guest result named like one of minhv's own is renamed and fails; the
# real one is there and passes.
boot scn-forge --smp 1 --opts "tests=hostile_forge"
expect_rc 1 "forged hypervisor result: the run fails"
expect_ktap_fail guest.svm.pool_restored
expect_ktap_ok svm.pool_restored
expect_ktap_ok svm.guest_run

# 600 results with a plan of 1, then exit 1: the run must fail.
boot scn-flood --smp 1 --opts "tests=hostile_report_flood"
expect_rc 1 "report flood as the main guest: the run fails"
expect_ktap_fail svm.guest_run
expect_ktap_fail svm.guest_results
expect_ktap_ok svm.pool_restored

# A user ELF from the ESP (the built guest, copied), and a broken one.
boot scn-user --smp 2 --file "$top/build/guest.elf:minhv/user.elf" \
	--opts 'guest=\minhv\user.elf tests=hello'
expect_rc 0 "guest=\\minhv\\user.elf: run passes"
expect_log '^\[user\] ' "the user ELF ran (console prefixed with its name)"
expect_ktap_ok svm.guest_run

bad=$(mktemp)
printf '\177ELF-broken-%0200d' 0 >"$bad"
boot scn-badelf --smp 1 --file "$bad:minhv/bad.elf" --opts 'guest=\minhv\bad.elf'
rm -f "$bad"
expect_rc 1 "broken ELF: the run fails"
expect_log '^error: guest user: the ELF image cannot be loaded' "broken ELF: a clear error"
expect_ktap_fail svm.guest_create
expect_no_log '^svm: guest .* stopped' "broken ELF: no guest ran"

done_testing
