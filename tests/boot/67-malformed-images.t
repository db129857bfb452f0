#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/67-malformed-images.t - malformed and unusual images
# (tests/boot/mkimages.py) booted as guest= (issue 24): a bzImage whose
# pref_address wraps past 2^64, one not relocatable below 1 MiB, a
# multiboot kernel requiring a video mode, and guest_mem beyond the pool,
# are refused with a message naming the problem while minhv finishes its
# run with its summary; an ELF32 kernel with a small low segment, and a
# kernel wholly in conventional memory, both with a module that reaches
# past 0x9000, load and find that segment and their module intact.
. "$(dirname "$0")/lib.sh"

img=$top/build/boot-images
python3 "$here/mkimages.py" "$img" || { echo "not ok 1 - mkimages.py"; echo "1..1"; exit 1; }

refused() { # name image want [opts]
	local name=$1 image=$2 want=$3 opts=${4:-guest_mem=16M}
	boot "img-$name" --smp 1 ${image:+--file "$img/$image:img/$image"} \
		--opts "${image:+guest=\\img\\$image }$opts"
	expect_rc 1 "$name: the run fails"
	expect_log "$want" "$name: refused, saying why"
	expect_ktap_fail svm.guest_create
	expect_log '^# Totals: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+' \
		"$name: the KTAP summary is printed"
	expect_log '^minhv: exit: fail' "$name: the hypervisor ended the run itself"
}

refused bz-wrap bz_wrap.bin \
	"linux: the kernel .*pref_address 0xffffffffffe00000\\) does not fit in \\[1 MiB,"
refused bz-low bz_low.bin \
	"linux: the kernel .*pref_address 0x10000, fixed\\) does not fit in \\[1 MiB,"
refused mb-badreq mb_badreq.bin "multiboot: header flags 0x4 require"
refused pool "" "guest_mem=256M does not fit the page pool .*raise pool=" \
	"guest_mem=256M"

for image in mb_elf32_low.elf mb_low.bin; do
	boot "img-${image%.*}" --smp 1 --file "$img/$image:img/$image" \
		--file "$img/module.bin:img/module.bin" \
		--opts "guest=\\img\\$image initrd=\\img\\module.bin guest_mem=16M guest_time_ms=20000"
	expect_rc 0 "$image: loads, and finds its segments and module intact"
	expect_ktap_ok multiboot.exit_status
done
done_testing
