#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/75-sched.t - vCPUs sharing CPUs (docs/SCHED.md, issue 27).
# tests=sched on 2 CPUs: 4 vCPUs contend on a PAUSE spinlock whose holder
# is often preempted with it, under pause_yield=none and =directed (both
# finish with the exact count, directed in fewer PAUSE exits); a vCPU that
# never exits shares vCPU 0's CPU and vCPU 0 gets it back; two guests on
# one CPU, one spinning forever without an exit, the other ends first.
# Then two vCPUs on one CPU through the offline/online and HLT wake-up
# scenarios (blocking, waking, both directions).
. "$(dirname "$0")/lib.sh"

boot sched --smp 2 --opts "tests=sched" --timeout 300
expect_rc 0 "tests=sched: run passes"
ktap_valid "tests=sched: KTAP block well formed"
expect_log '^guest spin-none: pause: no PauseFilter .*vCPUs share CPUs, intercepted: every PAUSE exits' \
	"sharing CPUs without the filter (TCG): intercepted, every PAUSE exits, said so"
expect_log '^guest spin-none: 4 vCPUs share 2 CPU\(s\): slice 5000 us, pause_yield=none' \
	"4 vCPUs on 2 CPUs, pause_yield=none"
expect_ktap_ok sched.spinlock_none
expect_ktap_ok sched.spinlock_directed
expect_ktap_ok sched.directed_fewer_pause_exits
expect_ktap_ok sched.hog_preempted
expect_ktap_ok sched.guests_fair
expect_log '^error: guest spinner stopped: vCPU 0: no progress' \
	"the spinning guest was stopped by the watchdog (its run time, not its wait)"
expect_log '^guest guest: pause: no PauseFilter .*: PAUSE not intercepted' \
	"one vCPU per CPU: PAUSE not intercepted"
grep -E '^sched: spinlock' "$LOG" | sed 's/^/# /'

boot sched-1cpu --smp 1 --opts "vcpus=2 tests=hello,hypercalls,vcpu_online,hlt_wake,sched_hog" \
	--timeout 300
expect_rc 0 "2 vCPUs on 1 CPU: the offline/online, HLT and hog scenarios pass"
ktap_valid "2 vCPUs on 1 CPU: KTAP block well formed"
for t in hello hypercalls vcpu_online hlt_wake sched_hog park.vcpu_offline_parked; do
	expect_ktap_ok "$t"
done

done_testing
