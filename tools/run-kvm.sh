#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/run-kvm.sh - run minhv under QEMU/KVM on an AMD host with nested SVM
# (-accel kvm -cpu host). Checks first that the host really offers it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)

fail() { echo "run-kvm: $*" >&2; exit 2; }
grep -q '^vendor_id.*AuthenticAMD' /proc/cpuinfo ||
	grep -q '^vendor_id.*HygonGenuine' /proc/cpuinfo ||
	fail "not an AMD host: nested SVM needs an AMD CPU (use make run for TCG)"
grep -qw svm /proc/cpuinfo || fail "the CPU shows no 'svm' flag (disabled in firmware, or this is itself a VM without nested SVM)"
[ -e /dev/kvm ] || fail "/dev/kvm is missing: modprobe kvm_amd (and check permissions)"
[ -r /sys/module/kvm_amd/parameters/nested ] || fail "kvm_amd is not loaded: modprobe kvm_amd nested=1"
case $(cat /sys/module/kvm_amd/parameters/nested) in
1|Y|y) ;;
*) fail "kvm_amd has nested=0: echo 'options kvm_amd nested=1' > /etc/modprobe.d/kvm-amd.conf; modprobe -r kvm_amd; modprobe kvm_amd" ;;
esac
[ -f "$top/build/minhv.efi" ] || make -C "$top" all >/dev/null || fail "build failed"
exec "$top/tests/boot/run-qemu.sh" --name kvm --accel kvm --cpu host \
	--smp "${SMP:-4}" --console "$@"
