#!/usr/bin/env bash
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
for h in read write svm triple_fault cli_loop storm invd ac_loop \
	xstate_dirty xstate debugregs xsetbv_bad; do
	expect_ktap_ok "hostile.$h"
done
expect_log '^svm: guest read .* stopped: .*nested page fault at GPA .* outside guest memory' "read outside memory: reason printed"
expect_log '^svm: guest triple_fault .* stopped: .*triple fault' "triple fault: reason printed"
expect_log '^svm: guest cli_loop .* stopped: .*no progress' "endless CLI loop: watchdog reason printed"
expect_ktap_ok hostile_invd # the guest's own checks: each instruction exited
expect_ktap_skip hostile_ac_loop "needs a CPL 3 environment"
# Nothing of the previous guest's vector state, XCR0 or DR0-DR3 is visible
# to the next guest on the same CPU; XSETBV exits and is checked.
expect_ktap_ok hostile_xstate_dirty
expect_ktap_ok hostile_xstate
expect_ktap_ok hostile_debugregs
expect_ktap_ok hostile_xsetbv_bad
expect_ktap_ok hostile.next_guest_runs
expect_ktap_ok lifecycle

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
