#!/usr/bin/env bash
# tools/linux-run.sh - `make linux`: Debian's kernel (tools/linux-kernel.sh,
# or LINUX_IMAGE=) with the initramfs of guest/linux-init
# (tools/mkinitramfs.sh) boots as a minhv guest under QEMU TCG (EPYC, one
# CPU). Passes when the console shows "Run /init as init process", /init's
# marker and PASS line, minhv's "exit status 1" (isa-debug-exit value 0)
# and minhv's own run passed. The console log is build/linux/console.log.
# Exit status: 0 pass, 1 fail, 2 harness error, 3 no kernel (reason said).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
out=build/linux
log=$out/console.log
timeout=${LINUX_TIMEOUT:-240}
# The TSC rate Linux is told (tsc_early_khz): no PIT or PM timer to
# calibrate against without interrupts. Any plausible value boots; time
# stamps are only as right as it is.
tsc_khz=${LINUX_TSC_KHZ:-2000000}
extra=${LINUX_CMDLINE:-}

kernel=$(tools/linux-kernel.sh)
rc=$?
[ $rc = 0 ] || exit $([ $rc = 3 ] && echo 3 || echo 2)
initrd=$(tools/mkinitramfs.sh) || exit 2
[ -f build/minhv.efi ] || { echo "linux-run: build/minhv.efi not built (make all)" >&2; exit 2; }

# acpi=off nolapic noapic: minhv gives this guest no ACPI tables, local APIC
# or I/O APIC yet; idle=poll: no HLT (nothing would wake it); nokaslr: one
# layout every run; printk.devkmsg=on: /init's /dev/kmsg lines are not
# rate limited (the limit counts jiffies, which do not advance here).
cmdline="console=ttyS0 earlyprintk=serial,ttyS0 acpi=off nolapic noapic idle=poll tsc_early_khz=$tsc_khz panic=-1 nokaslr printk.devkmsg=on${extra:+ $extra}"
opts="guest=\\linux\\vmlinuz initrd=\\linux\\initrd.gz cmdline=\"$cmdline\" guest_mem=256M pool=320M watchdog_ms=0"

mkdir -p "$out"
rm -f "$log"
echo "linux-run: $kernel + $initrd, cmdline: $cmdline"
tests/boot/run-qemu.sh --name linux --smp 1 --mem 1024 --timeout "$timeout" \
	--log "$log" --opts "$opts" \
	--file "$kernel:linux/vmlinuz" --file "$initrd:linux/initrd.gz"
qrc=$?
sed -i 's/\x1b\[[0-9;=]*[A-Za-z]//g; s/\r//g' "$log"

fail=0
check() { # regex description
	if grep -Eq -- "$1" "$log"; then
		echo "linux-run: ok - $2"
	else
		echo "linux-run: FAIL - $2 (no line matching /$1/)"
		fail=1
	fi
}
check 'Run /init as init process' "the kernel started /init"
check 'minhv-init: hello from /init' "/init's marker"
check 'minhv-init: PASS: 0 check\(s\) failed' "/init's checks passed"
check '^svm: guest user: exit status 1$' "minhv: guest exit status 1 (isa-debug-exit value 0)"
if grep -q 'unchecked MSR access error' "$log"; then
	echo "linux-run: FAIL - Linux reported an unchecked MSR access"
	grep -m3 'unchecked MSR access error' "$log"
	fail=1
fi
[ $qrc = 0 ] || { echo "linux-run: FAIL - minhv's run did not pass (run-qemu.sh status $qrc)"; fail=1; }
echo "linux-run: console log in $log"
[ $fail = 0 ] && echo "linux-run: PASS" || echo "linux-run: FAIL"
exit $fail
