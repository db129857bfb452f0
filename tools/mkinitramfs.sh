#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/mkinitramfs.sh - build/linux/initramfs.cpio.gz for `make linux-init`:
# /init (guest/linux-init/init.c, host gcc -static), /proc, /dev and a
# /dev/console node, written as newc cpio by tools/newc.py (no root needed
# for the device node). Prints the archive's path.
set -eu

out=${LINUX_DIR:-build/linux}
src=guest/linux-init/init.c
mkdir -p "$out/initramfs"
if [ ! -x "$out/initramfs/init" ] || [ "$src" -nt "$out/initramfs/init" ]; then
	gcc -static -pthread -O2 -Wall -Wextra -Werror -o "$out/initramfs/init" "$src" ||
		{ echo "mkinitramfs: cannot build a static /init (libc6-dev? glibc static libs?)" >&2; exit 1; }
fi
cat >"$out/initramfs.list" <<LIST
dir /dev 0755
nod /dev/console 0600 c 5 1
dir /proc 0555
dir /sys 0555
file /init 0755 $out/initramfs/init
LIST
python3 tools/newc.py "$out/initramfs.list" | gzip -9n >"$out/initramfs.cpio.gz.part"
mv "$out/initramfs.cpio.gz.part" "$out/initramfs.cpio.gz"
echo "$out/initramfs.cpio.gz"
