# tests/unit/vlapic.mk - unit tests of the virtual local APIC register file
# (hv/platform/lapic*.c) through its xAPIC MMIO and x2APIC MSR front ends.
UNIT_TESTS += test_vlapic
test_vlapic_MODS := vlapic
