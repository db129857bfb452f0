#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/12-tsc-rate.t - the TSC rate minhv measures, against the
# host's own (under QEMU TCG a guest's RDTSC is the host's TSC, so the
# host's rate is the true one; tests/boot/tsc-rate.c measures it over a
# second of wall time):
# - without a PIT (-machine q35,pit=off, as on legacy-free servers): the
#   HPET and the PM timer serve, the PIT is reported as not counting, no
#   2000 MHz guess, and the rate is within 1 %;
# - on a loaded host (two busy loops beside QEMU during the boot, which
#   once made the 10 ms PIT window read 2,093..17,499 MHz against 2,096):
#   still within 1 %, confirmed by a long window (50 ms, or up to 200 ms
#   when the short windows had to grow).
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
helper=$top/build/tsc-rate
cc -O2 -Wall -Wextra -o "$helper" "$here/tsc-rate.c" 2>"$logdir/tsc-rate.cc.log"
_ok $? "the host TSC helper builds" "$(cat "$logdir/tsc-rate.cc.log")"
host_khz=$("$helper")
echo "# host TSC: $host_khz kHz"

# within_1pct description: minhv's "time: TSC M.mmm MHz" within 1 % of the
# host's rate.
within_1pct() {
	local line mhz
	line=$(grep -Eo '^(warning: )?time: TSC [0-9]+\.[0-9]{3} MHz' "$LOG" | head -n 1)
	mhz=${line#*time: TSC }
	mhz=${mhz% MHz}
	echo "# minhv: ${mhz:-none} MHz, host: $host_khz kHz"
	grep -E '^(warning: |error: )?time: ' "$LOG" | sed 's/^/# /'
	awk -v m="${mhz:-0}" -v h="$host_khz" 'BEGIN {
		d = (m * 1000 - h) / h; if (d < 0) d = -d; exit !(h > 0 && d < 0.01) }'
	_ok $? "$1" "minhv says '${line:-nothing}', the host's TSC runs at $host_khz kHz"
}

s=$SECONDS
boot tsc-nopit --smp 2 --machine q35,pit=off --opts "tests=hello"
echo "# no PIT: $((SECONDS - s)) s"
expect_rc 0 "no PIT: the run passes"
expect_no_log 'assuming a 2000 MHz TSC' "no PIT: no guessed rate"
expect_log '^time: references: HPET [0-9.]+ MHz, spread [0-9]+ ppm, [0-9]+/[0-9]+ windows: used; PM timer [0-9.]+ MHz, spread [0-9]+ ppm, [0-9]+/[0-9]+ windows: used; PIT 0/1 windows: did not count$' \
	"no PIT: HPET and PM timer used, the PIT found not counting"
expect_log '^time: TSC [0-9.]+ MHz: confirmed by a [0-9]+ ms window' \
	"no PIT: a long window confirmed the rate"
within_1pct "no PIT: the TSC rate is within 1 % of the host's"
# OVMF leaves every pin masked (test_ioapic covers unmasked ones).
expect_log '^ioapic: ID 0 at 0xfec00000: 24 pins masked, 0 were not' \
	"the I/O APIC's pins are all masked at boot"

# Two busy loops at nice 0 on the two host cores, beside QEMU.
hogs=()
for i in 1 2; do
	(while :; do :; done) &
	hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null' EXIT
s=$SECONDS
boot tsc-loaded --smp 2 --opts "tests=hello" --timeout 240
echo "# loaded host: $((SECONDS - s)) s"
kill "${hogs[@]}" 2>/dev/null
wait "${hogs[@]}" 2>/dev/null
trap - EXIT
expect_rc 0 "loaded host: the run passes"
expect_log '^time: TSC [0-9.]+ MHz: confirmed by a [0-9]+ ms window' \
	"loaded host: a long window confirmed the rate"
within_1pct "loaded host: the TSC rate is within 1 % of the host's"

echo "# 12-tsc-rate.t: $((SECONDS - t0)) s"
done_testing
