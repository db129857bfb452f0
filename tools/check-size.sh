#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/check-size.sh - `make test`: fails when build/minhv.efi (with the
# embedded, stripped guest) reaches its size budget, 256 KiB by default;
# when minhv.so (the ELF it is made from) holds a function that was
# removed as dead or that only the unit tests use (they live in
# tests/doubles/); or when it has a relocation crt0's _relocate() cannot
# apply (only R_X86_64_RELATIVE).
# Usage: tools/check-size.sh [LIMIT-BYTES [EFI]]
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
limit=${1:-262144}
efi=${2:-$top/build/minhv.efi}
b=$(dirname "$efi")

[ -f "$efi" ] || { echo "check-size: $efi missing (make all)" >&2; exit 2; }
size=$(stat -c %s "$efi")
# Where the bytes go, for whoever has to make room.
sec="" sep=""
while read -r name hex; do
	sec+="$sep$name $((16#$hex))" sep=", "
done < <(objdump -h "$efi" | awk '$2 ~ /^\./ { print $2, $3 }')
emb=""
[ -f "$b/guest.stripped.elf" ] &&
	emb=", embedded guest $(stat -c %s "$b/guest.stripped.elf")"
echo "check-size: minhv.efi $size bytes (limit $limit: $sec$emb)"
if [ "$size" -ge "$limit" ]; then
	echo "check-size: FAILED: minhv.efi is $size bytes, it must stay below $limit" >&2
	exit 1
fi

# Names that must not come back into the image (docs/PERFORMANCE.md,
# "Nothing dead in the image"): dead code, and the unit tests' hooks.
not_in_image='hv_host_cr3 svm_run_builtin console_uart park_until_online
udelay rmpopt_base cpu_halt exit_dispatch ktap_reset mm_reset mtrr_reset sched_reset
park_reset
rmp_model_fail_next mtrr_set_barrier_timeout'
so=$b/minhv.so
[ -f "$so" ] || { echo "check-size: $so missing (make all)" >&2; exit 2; }
bad=0
syms=$(nm "$so" | awk '{ print $NF }')
for n in $not_in_image; do
	if grep -qx "$n" <<<"$syms"; then
		echo "check-size: FAILED: $n is in $so (dead or test-only: see tests/doubles/)" >&2
		bad=1
	fi
done
other=$(readelf -rW "$so" | awk '$3 ~ /^R_X86_64_/ && $3 != "R_X86_64_RELATIVE"' | head -5)
if [ -n "$other" ]; then
	echo "check-size: FAILED: $so has relocations crt0's _relocate() cannot apply:" >&2
	echo "$other" >&2
	bad=1
fi
[ $bad = 0 ] && echo "check-size: none of the ${not_in_image//$'\n'/ } in minhv.so; every relocation R_X86_64_RELATIVE"
exit $bad
