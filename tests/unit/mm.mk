# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_mm test_ktap
test_mm_MODS := mm log fmt fake_console fake_cpu
test_ktap_MODS := ktap guest_report log fmt fake_console fake_cpu
