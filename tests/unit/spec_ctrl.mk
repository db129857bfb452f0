UNIT_TESTS += test_spec_ctrl
SPEC_UT_DEPS := hv/park/spec_ctrl.c hv/park/spec_ctrl_policy.c hv/features.c \
	hv/log.c lib/fmt.c tests/unit/park_fakes.c \
	tests/doubles/fake_cpu.c tests/doubles/fake_console.c
test_spec_ctrl_SRCS := tests/unit/test_spec_ctrl.c $(SPEC_UT_DEPS)
