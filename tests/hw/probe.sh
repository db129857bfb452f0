#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/hw/probe.sh - what can run on this machine: CPU vendor and model,
# whether /dev/kvm exists and works, whether KVM offers nested SVM, and so
# which minhv suite fits here (TCG boot tests, KVM nested, or bare metal).
set -u

vendor=$(awk -F': ' '/^vendor_id/ {print $2; exit}' /proc/cpuinfo)
model=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
family=$(awk -F': ' '/^cpu family/ {print $2; exit}' /proc/cpuinfo)
flags=$(awk -F': ' '/^flags/ {print $2; exit}' /proc/cpuinfo)
has() { case " $flags " in *" $1 "*) echo yes ;; *) echo no ;; esac; }

echo "cpu.vendor: ${vendor:-unknown}"
echo "cpu.model: ${model:-unknown} (family ${family:-?})"
echo "cpu.cores: $(nproc)"
echo "cpu.svm: $(has svm)"
echo "cpu.vmx: $(has vmx)"
echo "cpu.x2apic: $(has x2apic)"
echo "cpu.hypervisor: $(has hypervisor)"

kvm=no kvm_works=no nested=no
if [ -e /dev/kvm ]; then
	kvm=yes
	# KVM_GET_API_VERSION (ioctl 0xAE00) answers 12 on a working KVM.
	if command -v python3 >/dev/null; then
		kvm_works=$(python3 -c '
import fcntl, os
try:
    fd = os.open("/dev/kvm", os.O_RDWR)
    print("yes" if fcntl.ioctl(fd, 0xAE00) == 12 else "no")
except OSError as e:
    print("no (%s)" % e.strerror)
' 2>/dev/null)
	fi
fi
if [ -r /sys/module/kvm_amd/parameters/nested ]; then
	case $(cat /sys/module/kvm_amd/parameters/nested) in
	1|Y|y) nested=yes ;;
	*) nested="no (kvm_amd nested=0)" ;;
	esac
elif [ "$(has svm)" = yes ]; then
	nested="no (kvm_amd not loaded)"
fi
echo "kvm.dev: $kvm"
echo "kvm.works: $kvm_works"
echo "kvm.nested_svm: $nested"

if [ "$nested" = yes ] && [ "$kvm_works" = yes ]; then
	suite="kvm-nested (tools/run-kvm.sh; make test also runs)"
elif [ "$kvm_works" = yes ]; then
	suite="tcg (KVM present but no nested SVM: make test)"
else
	suite="tcg (make test)"
fi
echo "suite: $suite"
