#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/bench-ipi.sh - the IPI benchmark (not a test): boots minhv with
# bench=1 under deterministic TCG (-icount shift=5) and prints its table.
# Machine-readable lines ("bench-result: ...") go to build/bench/ipi.txt.
# Usage: tests/boot/bench-ipi.sh [smp] [cpu-model]
set -u
here=$(cd "$(dirname "$0")" && pwd)
smp=${1:-4} cpu=${2:-EPYC,+x2apic}
log=$(mktemp)
"$here/run-qemu.sh" --name bench-ipi --smp "$smp" --cpu "$cpu" \
	--opts "bench=1" --timeout 600 --log "$log" \
	-- -icount shift=5,align=off,sleep=off 2>/dev/null
rc=$?
sed -i 's/\r//g' "$log"
grep -E '^(smp: [0-9]+ of|bench: )' "$log"
mkdir -p "$here/../../build/bench"
grep -E '^bench-result: ' "$log" >"$here/../../build/bench/ipi.txt"
rm -f "$log"
exit $rc
