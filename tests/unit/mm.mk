UNIT_TESTS += test_mm test_ktap
test_mm_SRCS := tests/unit/test_mm.c hv/mm.c hv/log.c lib/fmt.c \
	tests/doubles/fake_console.c tests/doubles/fake_cpu.c
test_ktap_SRCS := tests/unit/test_ktap.c hv/ktap.c hv/guest/report.c hv/mm.c hv/log.c \
	lib/fmt.c tests/doubles/fake_console.c tests/doubles/fake_cpu.c
