# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/ioapic.mk - masking the host's I/O APICs at boot.
UNIT_TESTS += test_ioapic
test_ioapic_MODS := ioapic log fmt fake_cpu fake_console
