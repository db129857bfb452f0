# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/vlapic.mk - unit tests of the virtual local APIC: the register
# file (hv/vlapic/vlapic*.c) through its xAPIC MMIO and x2APIC MSR front
# ends, and its interrupt, timer, IPI and INIT/SIPI behaviour.
UNIT_TESTS += test_vlapic test_vlapic_irq
test_vlapic_MODS := vlapic
test_vlapic_irq_MODS := vlapic
