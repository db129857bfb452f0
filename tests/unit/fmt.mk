UNIT_TESTS += test_fmt
test_fmt_MODS := fmt
