# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_park
test_park_MODS := park spec_ctrl park_fakes features log fmt fake_cpu \
	fake_console
