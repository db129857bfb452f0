# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/rmp.mk - unit suite test_rmp (model and fake RMP instructions).
UNIT_TESTS += test_rmp
test_rmp_MODS := $(SNP_UT_MODS)
