#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/22-cpu-models.t - the default suite (make run's) on QEMU's
# real EPYC models, not only "EPYC": Rome (Zen 2), Milan (Zen 3) and Genoa
# (Zen 4, with LA57: canonical addresses are 57-bit there), each with
# x2APIC; and the CPUID topology on sparse and SMT topologies, where the
# physical APIC IDs are not the vCPU indices: the cpuid scenario checks on
# every vCPU that leaf 1, 0xB and 0x8000001E give its vCPU index (the ID
# the vLAPIC and the guest MADT use) and that the leaves describe one
# package of N cores.
. "$(dirname "$0")/lib.sh"

for m in Rome Milan Genoa; do
	boot "cpu-$m" --smp 4 --cpu "EPYC-$m,+x2apic"
	expect_rc 0 "EPYC-$m: default suite passes"
	ktap_valid "EPYC-$m: KTAP block well formed, every line ok"
	expect_ktap_ok cpuid
	expect_ktap_ok msr
done

# Two sockets of three cores: QEMU numbers the APICs 0-2 and 4-6; vCPU 3
# runs on the CPU with APIC ID 4 but must read 3 (its MADT entry).
boot topo-sparse --smp 6,sockets=2,cores=3 --opts "tests=cpuid,hello"
expect_log '^acpi: enabled APIC IDs: 0-2 4-6$' "sparse: the host's APIC IDs are 0-2 4-6"
expect_rc 0 "sparse: run passes"
ktap_valid "sparse: KTAP block well formed, every line ok"
expect_ktap_ok cpuid

# Four cores of two threads: the host's CPUID describes SMT siblings, the
# guest's one thread per core.
boot topo-smt --smp 8,sockets=1,cores=4,threads=2 --opts "tests=cpuid,hello"
expect_log '^acpi: enabled APIC IDs: 0-7$' "SMT: 8 CPUs"
expect_rc 0 "SMT: run passes"
ktap_valid "SMT: KTAP block well formed, every line ok"
expect_ktap_ok cpuid

done_testing
