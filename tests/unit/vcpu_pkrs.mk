# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/vcpu_pkrs.mk - the guest's IA32_PKRS: per vCPU, reset value,
# reserved bits, no PKS, nothing left on the CPU for the next vCPU.
UNIT_TESTS += test_vcpu_pkrs
test_vcpu_pkrs_MODS = $(test_exits_MODS)
