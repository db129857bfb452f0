UNIT_TESTS += test_options
test_options_MODS := options log fmt fake_console
