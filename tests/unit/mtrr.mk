# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_mtrr
# The suite's own cases are split over several files.
test_mtrr_SRCS := tests/unit/test_mtrr_fixture.c tests/unit/test_mtrr_policy.c \
	tests/unit/test_mtrr_sync.c tests/unit/test_mtrr_range.c
test_mtrr_MODS := mtrr barrier features log fmt fake_cpu fake_console fake_smp
