UNIT_TESTS += test_options
test_options_SRCS := tests/unit/test_options.c hv/options.c \
	hv/options_table.c hv/options_value.c hv/log.c hv/lib/fmt.c \
	tests/doubles/fake_console.c
