#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/linux-stages.sh - `make linux`: Linux as its users run it (issue 25).
# Debian's kernel (tools/linux-kernel.sh) and busybox-static userland with
# the virtio/ext4 modules and the ext4 disk (tools/linux-userland.sh), the
# command line `console=ttyS0` alone, each stage one boot driven over the
# serial line by tools/linux_stages.py (stages and checks described there):
#   LINUX_STAGES   stages to run (default "user smp autoreboot
#                  autopoweroff": issue 25's four, user in one machine, and
#                  the reset and S5 typed by rcS; also boot, shell, reboot,
#                  poweroff alone, all (user's and smp's checks on 4 vCPUs
#                  in one machine), bench)
#   LINUX_TARGET   minhv (default), bare (QEMU -kernel, the reference), both
#   LINUX_TIMEOUT  seconds per boot (default 300 bare, 900 minhv)
#   LINUX_VCPUS    vCPUs of the bench stage (default 4)
#   LINUX_CONSOLE_KIB  KiB the smp stage writes to the console (default
#                  1024, issue 25's 1 MiB; make test writes 128)
#   LINUX_ICOUNT   e.g. shift=5,align=off,sleep=off: both machines under
#                  -icount (guest clocks count instructions: exact figures)
#   LINUX_BARE_VIRTIO=mmio  bare QEMU as -M microvm,acpi=on (virtio-mmio
#                  declared in the DSDT as LNRO0005) instead of q35 + PCI
#   LINUX_MINHV_OPTS  minhv's options besides guest=, initrd=, cmdline=,
#                  disk=, vcpus= (tools/linux_stages.py has the default)
#   LINUX_EFI      the minhv.efi to boot (default build/minhv.efi)
#   LINUX_OUT      where the logs go (default build/linux/stages)
# Logs: build/linux/stages/<target>-<stage>.{log,transcript}.
# Exit status: 0 every stage passed, 1 a check failed, 2 harness error,
# 3 no kernel or busybox (no apt, no network; the reason said).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
stages=${LINUX_STAGES:-user smp autoreboot autopoweroff}
target=${LINUX_TARGET:-minhv}

kernel=$(tools/linux-kernel.sh) || exit $?
initrd=$(tools/linux-userland.sh initrd) || exit $?
disk=$(tools/linux-userland.sh disk) || exit $?
case $target in
bare) targets=bare ;;
minhv) targets=minhv ;;
both) targets="bare minhv" ;;
*) echo "linux-stages: LINUX_TARGET=$target: bare, minhv or both" >&2; exit 2 ;;
esac
efi=${LINUX_EFI:-build/minhv.efi}
if [ "$targets" != bare ] && [ ! -f "$efi" ]; then
	echo "linux-stages: $efi not built (make all)" >&2
	exit 2
fi

fail=0
for t in $targets; do
	# shellcheck disable=SC2086
	python3 tools/linux_stages.py --target "$t" --kernel "$kernel" \
		--initrd "$initrd" --disk "$disk" --efi "$efi" \
		${LINUX_OUT:+--out "$LINUX_OUT"} \
		${LINUX_TIMEOUT:+--timeout "$LINUX_TIMEOUT"} \
		${LINUX_VCPUS:+--vcpus "$LINUX_VCPUS"} \
		${LINUX_CONSOLE_KIB:+--console-kib "$LINUX_CONSOLE_KIB"} $stages
	case $? in
	0) ;;
	1) [ "$fail" = 2 ] || fail=1 ;;
	*) fail=2 ;;
	esac
done
if [ "$fail" = 0 ]; then
	echo "linux-stages: PASS ($targets: $stages)"
else
	echo "linux-stages: FAIL ($targets: $stages)"
fi
exit "$fail"
