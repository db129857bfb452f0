#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/01-foundation.t - boot, inventory, options (disk= among
# them), exit status.
. "$(dirname "$0")/lib.sh"

for n in 1 4; do
	boot "foundation-smp$n" --smp "$n"
	expect_rc 0 "smp $n: run passes"
	expect_log '^minhv: minimal AMD SVM hypervisor' "smp $n: banner"
	expect_log "^acpi: $n processor entries: $n enabled" "smp $n: MADT inventory lists $n CPUs"
	expect_log '^acpi: enabled APIC IDs: 0' "smp $n: APIC IDs listed"
	expect_log '^memory: .* minhv owns [0-9]+ KiB' "smp $n: memory the hypervisor owns"
	expect_log 'after ExitBootServices' "smp $n: hand-off reached"
	ktap_valid "smp $n: KTAP block well formed, all ok"
	expect_ktap_ok boot.madt_matches_qemu
done

boot foundation-badopt --smp 1 --opts "loglevel=debug frobnicate=1"
expect_rc 1 "unknown option in minhv.cfg ends the run with the fail status"
expect_log "unknown option 'frobnicate'" "the message names the unknown option"

boot foundation-badval --smp 1 --opts "maxcpus=lots"
expect_rc 1 "malformed value ends the run with the fail status"
expect_log "maxcpus" "the message names the option with the bad value"

# The ESP is read through the firmware's file protocols (boot/efi_file.c):
# a guest= file that is not there is named, and the run fails.
boot foundation-noguest --smp 1 --opts "guest=\\minhv\\nope.elf"
expect_rc 1 "a guest= file missing from the ESP fails the run"
expect_log "^error: boot: guest image '.minhv.nope\.elf': no such file" \
	"the message names the missing file"
expect_log '^error: boot: guest image unavailable' "and says the run cannot go on"

# disk= (docs/OPTIONS.md): a missing file, and one that is not whole
# sectors, stop the run before the hand-off, naming the file and why.
boot foundation-disk-missing --smp 1 --opts "disk=\\linux\\none.img"
expect_rc 1 "a missing disk image ends the run with the fail status"
expect_log "disk image '.linux.none.img': no such file" "the message names the missing disk image"
ragged=$(mktemp)
head -c 1000 /dev/zero >"$ragged"
boot foundation-disk-ragged --smp 1 --file "$ragged:linux/r.img" --opts "disk=/linux/r.img"
rm -f "$ragged"
expect_rc 1 "a disk image of 1000 bytes ends the run with the fail status"
expect_log "disk image '/linux/r.img': 1000 bytes is not a whole number of 512-byte sectors" \
	"the message says the image is not whole sectors"

boot foundation-cmdline --smp 1 --cmdline "loglevel=debug exit=qemu" --timeout 180
expect_rc 0 "options from the UEFI load options (shell command line) are accepted"
expect_log '^options: .*loglevel=debug' "loglevel=debug from the load options took effect"

boot foundation-cmdline-bad --smp 1 --cmdline "exit=qemu bogus=1" --timeout 180
expect_rc 1 "a bad option on the command line fails the run"
expect_log "load options: unknown option 'bogus'" "the message names the source and the option"

done_testing
