#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/70-exit-budget.t - the exit path stays within its instruction
# budget (tests/boot/exit-budget.conf): under -icount shift=5 the TSC counts
# 32 per instruction, so the bench=1 figures are exact instruction counts and
# any work added to every #VMEXIT shows up here, not only in `make bench`.
. "$(dirname "$0")/lib.sh"

conf=$here/exit-budget.conf
boot exit-budget --smp 1 --cpu EPYC,+x2apic --opts "bench=1 tests=bench" \
	--timeout 300 -- -icount shift=5,align=off,sleep=off
expect_rc 0 "bench=1 boot under -icount passes"
figures=$("$top/tools/bench.sh" --parse "$LOG" icount exit-budget)

while read -r name budget _; do
	case $name in '' | '#'*) continue ;; esac
	tsc=$(awk -F'\t' -v n="icount.$name" '$1 == n { print $2 }' <<<"$figures")
	if [ -z "$tsc" ]; then
		_ok 1 "$name within $budget instructions" "no figure $name in $LOG"
		continue
	fi
	# TSC ticks to instructions, rounded up (32 ticks per instruction).
	insn=$(((tsc + 31) / 32))
	echo "# $name: $tsc TSC = $insn instructions (budget $budget)"
	_ok "$([ "$insn" -le "$budget" ] && echo 0 || echo 1)" \
		"$name: $insn instructions within budget $budget" \
		"$name grew past its budget: $insn > $budget instructions ($conf)"
done <"$conf"

done_testing
