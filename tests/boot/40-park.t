#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/40-park.t - parking CPUs with IBRS cleared, on QEMU
# TCG (no IBRS there: the IBRS checks SKIP with the reason). docs/PARKING.md.
. "$(dirname "$0")/lib.sh"

boot park-smp1 --smp 1
expect_rc 0 "smp 1: run passes"
expect_log '^spec: CPUID enumerates ibrs=0 stibp=0 ssbd=0 auto-ibrs=0' \
	"the speculation policy lists what CPUID enumerates"
expect_log '^spec: host protection: none \(IBRS not enumerated by CPUID\); base SPEC_CTRL 0x0' \
	"TCG: no kernel-mode IBRS, and why"
expect_log '^spec: parking: no SPEC_CTRL write needed: IBRS not enumerated by CPUID' \
	"TCG: the log says parking needs no SPEC_CTRL write, and why"
expect_log '^spec: RSB fill after #VMEXIT: off \(QEMU TCG, CPUID 0x40000000 TCGTCGTCGTCG: no speculation\)' \
	"TCG: QEMU's signature is found, no RSB fill after #VMEXIT"

for mode in hlt mwait; do
	boot "park-smp4-$mode" --smp 4 --opts "park=$mode"
	expect_rc 0 "$mode: smp 4 run passes"
	ktap_valid "$mode: KTAP block well formed, all ok"
	expect_ktap_ok park.boot_aps_parked
	expect_ktap_ok park.wake_cycle_counted
	expect_ktap_ok park.cross_call_while_parked
	expect_ktap_ok park.back_to_parked_after_cross_call
	expect_ktap_skip park.spec_ctrl_base_in_cross_call "IBRS not enumerated"
	expect_ktap_skip park.spec_ctrl_lowered_again "IBRS not enumerated"
	expect_ktap_ok park.no_spec_ctrl_write
	expect_ktap_ok park.posted_work_runs
	expect_ktap_ok park.mtrr_rendezvous
	expect_ktap_ok park.parked_after_mtrr
	expect_log '^park: [0-9]+ of 4 CPUs parked' "$mode: summary line"
	expect_log '^park: cpu[1-3] parked \(no vCPU to run\): parks [1-9][0-9]*, park/wake cycles [1-9]' \
		"$mode: an AP is parked with its park/wake cycles counted"
done

done_testing
