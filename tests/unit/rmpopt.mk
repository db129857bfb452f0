# tests/unit/rmpopt.mk - unit suite test_rmpopt (model and fake RMP instructions).
include tests/unit/snp_common.mk
UNIT_TESTS += test_rmpopt
test_rmpopt_SRCS := tests/unit/test_rmpopt.c $(SNP_UT_COMMON)
