# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/vioapic.mk - the guest's I/O APIC (hv/platform/ioapic.c) on
# real vLAPICs: registers, edge and level, remote IRR, EOI, destinations.
UNIT_TESTS += test_vioapic
test_vioapic_MODS := vioapic vlapic fake_cpu fake_console
