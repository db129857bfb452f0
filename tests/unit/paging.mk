# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/paging.mk - the host identity map and the 5-level hand-over.
UNIT_TESTS += test_paging
test_paging_MODS := paging pgtable
