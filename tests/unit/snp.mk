# tests/unit/snp.mk - unit suite test_snp (model and fake RMP instructions).
include tests/unit/snp_common.mk
UNIT_TESTS += test_snp
test_snp_SRCS := tests/unit/test_snp.c $(SNP_UT_COMMON)
