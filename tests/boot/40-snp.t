#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/40-snp.t - SEV-SNP teardown + RMPOPT on the RMP model
# (QEMU has neither SNP nor RMPOPT): the scenario's KTAP results, the back
# end named on the console, statistics after every pass, both schedules.
. "$(dirname "$0")/lib.sh"

snp_results="snp.backend snp.initial_pass_optimized snp.assign
	snp.assign_unoptimizes_every_cpu snp.psmash_partial_reclaim
	snp.teardown_a snp.shared_regions_stay_unoptimized
	snp.freed_regions_optimized_every_cpu snp.teardowns_batched
	snp.all_regions_optimized_every_cpu snp.pages_back_in_pool
	snp.rmpopt_stats snp.rmpopt_base_before_rmpopt"

for sched in leader both; do
	boot "snp-smp4-$sched" --smp 4 --mem 2048 --opts "rmpopt=$sched"
	expect_rc 0 "rmpopt=$sched: run passes"
	expect_log '^snp: cpu snp=0 ' "rmpopt=$sched: SNP detection logged"
	expect_log '^snp: RMP back end: model' "rmpopt=$sched: console names the model back end"
	expect_log '^snp: RMPOPT_BASE 0x1 \(covers 2 TiB\) on [0-9]+ cores' \
		"rmpopt=$sched: RMPOPT_BASE programmed per core"
	expect_log '^rmpopt: pass leader-then-cores: [0-9]+ regions, [1-9][0-9]* RMPOPTs, [0-9]+ cycles total; per RMPOPT min/avg/max [0-9]+/[0-9]+/[0-9]+' \
		"rmpopt=$sched: statistics printed after a pass"
	expect_log '^rmpopt: regions optimized per cpu: 0:[0-9]+' \
		"rmpopt=$sched: regions optimized per CPU printed"
	ktap_valid "rmpopt=$sched: KTAP block well formed, all ok"
	for r in $snp_results; do expect_ktap_ok "$r"; done
done
expect_log '^rmpopt: pass all-cores-at-once: ' "rmpopt=both: the all-at-once schedule ran too"

boot snp-smp4-all --smp 4 --opts "rmpopt=all"
expect_rc 0 "rmpopt=all: run passes"
expect_log '^rmpopt: pass all-cores-at-once: ' "rmpopt=all: all-at-once schedule"
expect_no_log '^rmpopt: pass leader-then-cores: ' "rmpopt=all: no leader pass"

done_testing
