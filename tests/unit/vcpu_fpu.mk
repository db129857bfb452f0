# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/vcpu_fpu.mk - per-vCPU vector state, XCR0 and DR0-DR3 around a
# vCPU's run (order of the XSAVE/XRSTOR/XSETBV/DR writes) and XSETBV checks.
UNIT_TESTS += test_vcpu_fpu
test_vcpu_fpu_MODS := vcpu_fpu fmt fake_cpu fake_console
