# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/vlapic.mk - unit tests of the virtual local APIC: the register
# file (hv/vlapic/vlapic*.c) through its xAPIC MMIO and x2APIC MSR front
# ends, its interrupt, IPI and INIT/SIPI behaviour (test_vlapic_irq), and
# its timer (test_vlapic_timer), the last two on four vLAPICs on one bus
# (vlapic_bus_fixture).
UNIT_TESTS += test_vlapic test_vlapic_irq test_vlapic_timer
test_vlapic_MODS := vlapic
test_vlapic_irq_MODS := vlapic vlapic_bus_fixture
test_vlapic_timer_MODS := vlapic vlapic_bus_fixture
