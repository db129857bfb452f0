#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/check-size.sh - `make test`: fails when build/minhv.efi (with the
# embedded, stripped guest) reaches its size budget, 256 KiB by default.
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
