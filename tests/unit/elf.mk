# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_elf
test_elf_MODS := elf log fmt fake_console
# The test also loads the real guest image (build/guest.elf) when present.
$(B)/unit/test_elf: $(B)/guest.elf
