UNIT_TESTS += test_guest_pt
test_guest_pt_SRCS := tests/unit/test_guest_pt.c hv/guest/pt.c arch/pgtable.c hv/log.c \
	lib/fmt.c tests/doubles/fake_console.c
