# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/pit.mk - the guest's 8254 and HPET: modes, latch, read-back,
# the gate and OUT2 at port 0x61, channel 0's IRQs; the HPET's counter.
UNIT_TESTS += test_pit
test_pit_MODS := pit_model fake_cpu fake_console
