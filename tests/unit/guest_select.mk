# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_guest_select
test_guest_select_MODS := guest_select select phrase
