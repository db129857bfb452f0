# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_fmt
test_fmt_MODS := fmt
