# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/ras.mk - machine checks and unexpected NMIs (hv/ras/).
UNIT_TESTS += test_ras
test_ras_MODS := ras ktap percpu features log fmt fake_cpu fake_console \
	fake_trap
