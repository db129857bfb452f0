# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/boot_prof.mk - the boot profile's table (hv/boot_prof.c):
# phases timed, nested and re-entered, the end taken once, the line.
UNIT_TESTS += test_boot_prof
test_boot_prof_MODS := boot_prof log fmt fake_cpu fake_console
