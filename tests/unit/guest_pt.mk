# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_guest_pt
test_guest_pt_MODS := guest_pt pgtable log fmt fake_console
