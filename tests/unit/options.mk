# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_options
test_options_MODS := options log fmt fake_console
