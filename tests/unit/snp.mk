# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/snp.mk - unit suite test_snp (model and fake RMP instructions).
UNIT_TESTS += test_snp
test_snp_MODS := $(SNP_UT_MODS)
