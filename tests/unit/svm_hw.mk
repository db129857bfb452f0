# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/svm_hw.mk - unit tests of the hardware-facing exit paths: cache
# instructions, exception intercepts, event re-injection, CPUID hiding.
UNIT_TESTS += test_exits_hw
test_exits_hw_MODS := $(test_exits_MODS)
