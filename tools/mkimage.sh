#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/mkimage.sh - a bootable GPT disk image: one EFI system partition with
# EFI/BOOT/BOOTX64.EFI (minhv), minhv/guest.elf and a default minhv/minhv.cfg.
# dd it to a USB stick, or serve BOOTX64.EFI over PXE/HTTP boot.
set -eu

[ $# -ge 3 ] || { echo "usage: $0 minhv.efi guest.elf out.img [minhv.cfg]" >&2; exit 2; }
efi=$1 guest=$2 out=$3 cfg=${4:-}
for t in sgdisk mformat mcopy mmd; do
	command -v "$t" >/dev/null || { echo "mkimage: $t missing (apt-get install gdisk mtools)" >&2; exit 1; }
done
[ -f "$efi" ] && [ -f "$guest" ] || { echo "mkimage: build first (make all)" >&2; exit 1; }

size_mb=64
start=2048 # first partition at 1 MiB (sectors of 512 bytes)
tmp=$out.tmp
rm -f "$tmp"
truncate -s ${size_mb}M "$tmp"
sgdisk -o -n 1:$start:0 -t 1:ef00 -c 1:"EFI System" "$tmp" >/dev/null
end=$(sgdisk -i 1 "$tmp" | sed -n 's/^Last sector: \([0-9]*\).*/\1/p')
sectors=$((end - start + 1))
img="$tmp@@$((start * 512))"
mformat -i "$img" -F -T "$sectors" -v MINHV ::
mmd -i "$img" ::/EFI ::/EFI/BOOT ::/minhv
mcopy -i "$img" "$efi" ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$img" "$guest" ::/minhv/guest.elf
if [ -n "$cfg" ]; then
	mcopy -i "$img" "$cfg" ::/minhv/minhv.cfg
else
	printf '%s\n' \
		'# minhv.cfg - options, one key=value per line or several per line.' \
		'# The UEFI load options (command line) override this file.' \
		'# See docs/OPTIONS.md. Examples:' \
		'#   console=com1 baud=115200' \
		'#   smp=parallel tests=hello,cpuid' \
		'#   exit=halt' >"$out.cfg"
	mcopy -i "$img" "$out.cfg" ::/minhv/minhv.cfg
	rm -f "$out.cfg"
fi
mv "$tmp" "$out"
echo "mkimage: $out ($size_mb MiB GPT, ESP with EFI/BOOT/BOOTX64.EFI)"
