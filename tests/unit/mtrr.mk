UNIT_TESTS += test_mtrr
test_mtrr_SRCS := tests/unit/test_mtrr.c tests/unit/test_mtrr_fixture.c \
	tests/unit/test_mtrr_policy.c tests/unit/test_mtrr_sync.c \
	tests/unit/test_mtrr_range.c \
	hv/mtrr/mtrr.c hv/mtrr/state.c hv/mtrr/policy.c hv/mtrr/sync.c \
	hv/mtrr/range.c arch/barrier.c hv/features.c hv/log.c lib/fmt.c \
	tests/doubles/fake_cpu.c tests/doubles/fake_console.c \
	tests/doubles/fake_smp_pthread.c
