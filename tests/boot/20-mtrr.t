#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/20-mtrr.t - MTRRs replicated in one lock-step
# rendezvous, the self-snoop shortcut, and mtrr_set_range() (boot self-test
# WB -> WC -> UC -> restore on an unused range, hv/selftest/mtrr_ktap.c).
# Under QEMU TCG MTRRs are stored but have no effect and WBINVD is a no-op:
# this checks the procedure, the read-back and the flush rule, not caching.
# Boots run only the `hello` guest scenario: the rest is 30-scenarios.t's.
# MINHV_SKIP_64=1 skips the two 64-CPU boots (minutes under TCG).
. "$(dirname "$0")/lib.sh"

num='[0-9]+'

mtrr_common() { # label cpus
	expect_rc 0 "$1: run passes"
	ktap_valid "$1: KTAP block well formed, all ok"
	expect_log "^smp: $2 of $2 CPUs online" "$1: $2 CPUs online"
	expect_log "^mtrr: boot CPU: $num variable ranges" "$1: boot CPU state captured"
	expect_log "^mtrr: rendezvous 1 on $2 of $2 CPUs: caches (flushed|not flushed): " \
		"$1: rendezvous on every CPU, the log says whether it flushed"
	expect_log "^mtrr: all $2 CPUs verified equal to the boot CPU" \
		"$1: every CPU verified equal to the boot CPU"
	expect_no_log '^error: mtrr' "$1: no MTRR error"
	for t in mtrr.rendezvous mtrr.verified mtrr.flush_rule \
		mtrr.set_range_wc mtrr.set_range_uc_flushes \
		mtrr.set_range_restored; do
		expect_ktap_ok $t
	done
	# Every rendezvous (init, WC, UC, restore, and the parked-CPU one of
	# 40-park.t's check) ran on all CPUs and verified.
	expect_log "^mtrr: rendezvous 4 on $2 of $2 CPUs" "$1: all four rendezvous ran"
	local runs verified
	runs=$(grep -c "^mtrr: rendezvous [0-9]* on $2 of $2 CPUs" "$LOG")
	verified=$(grep -c "^mtrr: all $2 CPUs verified equal" "$LOG")
	[ "$runs" -ge 4 ] && [ "$verified" = "$runs" ]
	_ok $? "$1: all $2 CPUs verified after each rendezvous" \
		"$runs rendezvous on all CPUs, $verified verified"
	# WB -> WC -> UC: going to UC flushes, with or without self-snoop.
	expect_log "^mtrr: rendezvous 3 on $2 of $2 CPUs: caches flushed: " \
		"$1: WC -> UC flushes"
	_wb 3 "$(( 2 * $2 ))" "$1: WC -> UC: 2 WBINVDs per CPU"
}

_wb() { # rendezvous-number count description: "WBINVD executed" after it
	local got
	got=$(awk -v n="$1" '
		/^mtrr: rendezvous [0-9]+ on / { cur = $3 }
		/^mtrr: WBINVD executed / && cur == n { print $4; exit }' "$LOG")
	_ok "$([ "$got" = "$2" ] && echo 0 || echo 1)" "$3" \
		"rendezvous $1: WBINVD executed '$got' times, expected $2"
}

with_ss() { # label cpus
	mtrr_common "$@"
	expect_log "^mtrr: rendezvous 1 on $2 of $2 CPUs: caches not flushed: self-snoop \\(CPUID.1:EDX\\[27\\]\\) and no range goes from cacheable to UC" \
		"$1: self-snoop: the flushes were skipped, and why"
	_wb 1 0 "$1: self-snoop: 0 WBINVDs at boot"
	_wb 2 0 "$1: self-snoop: WB -> WC: 0 WBINVDs"
	_wb 4 0 "$1: self-snoop: restore (UC -> WB): 0 WBINVDs"
	expect_log "^mtrr: rendezvous 3 on $2 of $2 CPUs: caches flushed: self-snoop, but a variable range makes cacheable memory UC" \
		"$1: self-snoop, yet WC -> UC flushes, and the log says why"
	expect_ktap_ok mtrr.self_snoop_skips_flush
}

without_ss() { # label cpus
	mtrr_common "$@"
	expect_log "^mtrr: rendezvous 1 on $2 of $2 CPUs: caches flushed: no self-snoop \\(CPUID.1:EDX\\[27\\]=0\\)" \
		"$1: no self-snoop: flushed, and the log says why"
	for r in 1 2 4; do
		_wb $r "$(( 2 * $2 ))" "$1: no self-snoop: rendezvous $r: 2 WBINVDs per CPU"
	done
	expect_ktap_skip mtrr.self_snoop_skips_flush "self-snoop not set"
}

boot mtrr-smp4-ss --smp 4 --cpu EPYC,+x2apic,+ss --opts "tests=hello" --timeout 400
with_ss "smp 4 +ss" 4

boot mtrr-smp4 --smp 4 --cpu EPYC,+x2apic --opts "tests=hello" --timeout 400
without_ss "smp 4" 4

boot mtrr-smp4-ss-flush-on --smp 4 --cpu EPYC,+x2apic,+ss \
	--opts "tests=hello mtrr_flush=on" --timeout 400
mtrr_common "smp 4 +ss mtrr_flush=on" 4
expect_log "^mtrr: rendezvous 1 on 4 of 4 CPUs: caches flushed: mtrr_flush=on" \
	"mtrr_flush=on: the flush is forced despite self-snoop, and the log says so"
for r in 1 2 4; do
	_wb $r 8 "mtrr_flush=on: rendezvous $r: 2 WBINVDs per CPU"
done
expect_ktap_skip mtrr.self_snoop_skips_flush "mtrr_flush=on"

if [ "${MINHV_SKIP_64:-0}" != 1 ]; then
	# 64 vCPU threads on a small, busy host can take longer than the
	# 100 ms default to check in (all of them, seen once): this test is
	# about the rendezvous, not the bring-up timeout. Nor the watchdog:
	# its 2 s are host time, and with 63 vCPU threads spinning and a
	# second boot on the 2 cores, vCPU 0's thread once ran too little in
	# 2 s to finish one printf (3 INTR exits, "no progress").
	boot mtrr-smp64-ss --smp 64 --cpu EPYC,+x2apic,+ss --opts "tests=hello ap_timeout_ms=2000 watchdog_ms=20000" \
		--timeout 900
	with_ss "smp 64 +ss" 64

	boot mtrr-smp64 --smp 64 --cpu EPYC,+x2apic --opts "tests=hello ap_timeout_ms=2000 watchdog_ms=20000" \
		--timeout 900
	without_ss "smp 64" 64
fi

done_testing
