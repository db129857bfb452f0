# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/svm_hw.mk - unit tests of the hardware-facing exit paths: cache
# instructions, exception intercepts, event re-injection, CPUID hiding,
# the VMCB clean bits.
UNIT_TESTS += test_exits_hw
test_exits_hw_MODS := $(test_exits_MODS)
# Every VMCB field a handler writes marks its clean group (APM 15.15.3).
UNIT_TESTS += test_vmcb_clean
test_vmcb_clean_MODS := $(test_exits_MODS)
# The vLAPIC's entry path: NMI windows, the CR8-write intercept.
UNIT_TESTS += test_vlapic_inject
test_vlapic_inject_MODS := $(test_exits_MODS)
