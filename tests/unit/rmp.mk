# tests/unit/rmp.mk - unit suite test_rmp (model and fake RMP instructions).
include tests/unit/snp_common.mk
UNIT_TESTS += test_rmp
test_rmp_SRCS := tests/unit/test_rmp.c $(SNP_UT_COMMON)
