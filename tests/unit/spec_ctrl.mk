# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_spec_ctrl
test_spec_ctrl_MODS := spec_ctrl park_fakes features log fmt fake_cpu \
	fake_console
