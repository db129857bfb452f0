#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/90-image.t - the `make image` GPT disk boots, so the
# image for USB sticks and PXE cannot rot.
. "$(dirname "$0")/lib.sh"

img=$top/build/minhv.img
"$top/tools/mkimage.sh" "$top/build/minhv.efi" "$top/build/guest.elf" "$img" >/dev/null
_ok $? "make image builds a GPT disk image"
sgdisk -p "$img" 2>/dev/null | grep -q 'EF00'
_ok $? "the image has an EFI system partition"

boot image-smp2 --smp 2 --image "$img"
expect_rc 0 "the disk image boots from firmware with its default config and passes"
expect_log '^minhv: minimal AMD SVM hypervisor' "banner from the image"
ktap_valid "image boot: KTAP block well formed, all ok"

done_testing
