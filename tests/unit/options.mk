UNIT_TESTS += test_options
test_options_SRCS := tests/unit/test_options.c hv/options/options.c \
	hv/options/table.c hv/options/value.c hv/log.c lib/fmt.c \
	tests/doubles/fake_console.c
