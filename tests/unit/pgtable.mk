# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/pgtable.mk - the shared page-table builder (arch/pgtable.c)
# against a test allocator.
UNIT_TESTS += test_pgtable
test_pgtable_MODS := pgtable
