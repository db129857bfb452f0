# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/tsc_cal.mk - the TSC calibration against simulated clocks.
UNIT_TESTS += test_tsc_cal
test_tsc_cal_MODS := tsc_cal fake_cpu
