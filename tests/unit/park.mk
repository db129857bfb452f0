# Recursive (=): spec_ctrl.mk, which sets SPEC_UT_DEPS, is included after this.
UNIT_TESTS += test_park
test_park_SRCS = tests/unit/test_park.c hv/park/park.c hv/park/summary.c \
	$(SPEC_UT_DEPS)
