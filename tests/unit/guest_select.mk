UNIT_TESTS += test_guest_select
test_guest_select_SRCS := tests/unit/test_guest_select.c guest/select.c lib/select.c
