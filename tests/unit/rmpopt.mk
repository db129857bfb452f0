# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/rmpopt.mk - unit suite test_rmpopt (model and fake RMP instructions).
UNIT_TESTS += test_rmpopt
test_rmpopt_MODS := $(SNP_UT_MODS)
