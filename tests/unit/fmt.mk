UNIT_TESTS += test_fmt
test_fmt_SRCS := tests/unit/test_fmt.c lib/fmt.c
