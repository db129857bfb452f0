#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/52-linux-topology.t - Debian's kernel (tools/linux-kernel.sh)
# with /init of guest/linux-init in stage 2 on topologies whose physical
# APIC IDs are not the vCPU indices: -smp 6,sockets=2,cores=3 (QEMU's
# APIC IDs 0-2, 4-6) and -smp 8,sockets=1,cores=4,threads=2. minhv gives
# the guest one package of N single-thread cores numbered 0..N-1 in its
# MADT, vLAPICs and CPUID (hv/cpuid/topology.c); /init checks on every CPU
# that /proc/cpuinfo's apicid (the vLAPIC's), initial apicid (CPUID) and
# core id are the CPU's number in one package, and Linux must print no
# firmware-bug or APIC ID mismatch line. SKIP when no kernel can be had.
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1

reason=$(tools/linux-kernel.sh 2>&1 >/dev/null)
if [ $? = 3 ]; then
	echo "1..0 # SKIP no Linux kernel: $(printf '%s' "$reason" | tail -n1)"
	exit 0
fi
kernel=$(tools/linux-kernel.sh 2>/dev/null)
initrd=$(tools/mkinitramfs.sh) || { echo "1..0 # SKIP no initramfs"; exit 0; }
# What make linux-init's stage 2 passes (tools/linux-run.sh): no work-arounds.
cmdline="console=ttyS0 earlyprintk=serial,ttyS0 panic=-1 nokaslr printk.devkmsg=on minhv.stage=2"

linux_topo() { # name smp vcpus
	boot "linux-$1" --smp "$2" --mem 1024 --timeout "${LINUX_TIMEOUT2:-600}" \
		--file "$kernel:linux/vmlinuz" --file "$initrd:linux/initrd.gz" \
		--opts "guest=\\linux\\vmlinuz initrd=\\linux\\initrd.gz cmdline=\"$cmdline\" guest_mem=256M pool=320M watchdog_ms=0 vcpus=$3 guest_time_ms=580000"
	expect_rc 0 "$1: minhv's run passes"
	expect_log "smpboot: Total of $3 processors activated" "$1: Linux brought up $3 CPUs"
	expect_log 'minhv-init: ok topology' "$1: every CPU: apicid = initial apicid = core id = its number, one package"
	expect_log 'minhv-init: PASS: 0 check\(s\) failed' "$1: every /init check passed"
	expect_no_log '\[Firmware Bug\]|FW_BUG|APIC id mismatch|APIC ID mismatch' "$1: no firmware bug or APIC ID mismatch"
	expect_no_log 'unchecked MSR access error' "$1: no unchecked MSR access"
	expect_no_log '(Kernel panic|Oops|BUG:)' "$1: no kernel panic, oops or BUG"
}

linux_topo sparse "6,sockets=2,cores=3" 6
expect_log '^acpi: enabled APIC IDs: 0-2 4-6$' "sparse: the host's APIC IDs are 0-2 4-6"
linux_topo smt "8,sockets=1,cores=4,threads=2" 8

done_testing
