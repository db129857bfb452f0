UNIT_TESTS += test_mtrr
test_mtrr_SRCS := tests/unit/test_mtrr.c tests/unit/test_mtrr_fixture.c \
	tests/unit/test_mtrr_policy.c tests/unit/test_mtrr_sync.c \
	tests/unit/test_mtrr_range.c \
	hv/mtrr.c hv/mtrr_state.c hv/mtrr_policy.c hv/mtrr_sync.c \
	hv/mtrr_range.c hv/lib/barrier.c hv/features.c hv/log.c hv/lib/fmt.c \
	tests/doubles/fake_cpu.c tests/doubles/fake_console.c \
	tests/doubles/fake_smp_pthread.c
