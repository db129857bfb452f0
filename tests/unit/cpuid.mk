# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/cpuid.mk - the guest CPUID model (hv/cpuid/) on real EPYC CPUID
# dumps (tests/data/cpuid/): the allow-list, leaf 0xD, the topology leaves.
UNIT_TESTS += test_cpuid_model
test_cpuid_model_MODS := cpuid features vcpu_fpu log fmt fake_cpu \
	fake_console
