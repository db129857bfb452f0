# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/ptwalk.mk - the one page-table walker (arch/ptwalk.c) over
# every paging mode, and the host identity map's 4 KiB split built on it.
UNIT_TESTS += test_ptwalk
test_ptwalk_MODS := paging
