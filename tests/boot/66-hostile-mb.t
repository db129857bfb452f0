#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/66-hostile-mb.t - a hostile multiboot guest
# (guest/mb-hostile/mb_hostile.asm) against the waits, the vLAPIC and the
# exits (issue 24). First its row of checks, which must all pass: HLT with
# nothing armed ends, APIC byte reads and a REP MOV are served, a one-shot
# timer wakes `sti; hlt` and ignores a TSC write, string I/O reaches page 0,
# honours a segment base and goes through paging, MOV CR4 from 16-bit code
# gets #GP, a faulting IRET in an NMI handler leaks no TF. Then four guests
# nothing can wake or emulate: each is stopped at once with its reason,
# long before its run-time limit, and minhv ends the run itself.
. "$(dirname "$0")/lib.sh"

b=$top/build/mb-hostile
boot mbh-checks --smp 1 --file "$b/mbh_checks.bin:mb/mbh.bin" \
	--opts "guest=\\mb\\mbh.bin guest_mem=16M guest_time_ms=30000"
expect_rc 0 "checks: the run passes"
for c in sti_hlt_nothing_armed apic_byte_word_reads rep_mov_ignored \
	oneshot_wakes_sti_hlt timer_ignores_tsc_write rep_insb_page0 \
	insb_segment_base outsb_through_paging cr4_reserved_16bit_gp \
	nmi_iret_fault_no_tf_leak; do
	expect_log "mbh: ok $c\$" "checks: $c"
done
expect_log "mbh: paged OUTSB: P\$" "checks: OUTSB printed the bytes at the linear address"
expect_no_log "mbh: not ok" "checks: none failed"
expect_ktap_ok multiboot.exit_status

# case:what the last vCPU waits in (or what stopped it)
for c in "cli_hlt:the last vCPU 0 in HLT with interrupts off" \
	"init_self:the last vCPU 0 in wait-for-SIPI" \
	"s3:the last vCPU 0 in S3 with no wake-up" \
	"walk_apic:during a guest page-table walk at APIC GPA 0xfee00300: not emulated"; do
	name=${c%%:*} want=${c#*:}
	boot "mbh-$name" --smp 1 --file "$b/mbh_$name.bin:mb/mbh.bin" \
		--opts "guest=\\mb\\mbh.bin guest_mem=16M guest_time_ms=60000"
	expect_rc 1 "$name: the run ends, with the fail status"
	expect_log "stopped: .*$want" "$name: stopped with the reason ($want)"
	expect_no_log "run-time limit" "$name: not by the run-time limit"
	expect_ktap_fail svm.guest_run
	expect_ktap_ok svm.pool_restored
	expect_log '^minhv: exit: fail' "$name: the hypervisor ended the run itself"
done
done_testing
