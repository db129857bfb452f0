# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_linux_boot
test_linux_boot_MODS := linux_boot log fmt fake_console
