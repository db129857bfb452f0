# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/elf.mk - the ELF64 guest loader.
UNIT_TESTS += test_elf
test_elf_MODS := elf log fmt fake_console
# The test also loads the real guest image (build/guest.elf) when present;
# building it takes NASM, which make unit does not require.
ifneq ($(shell command -v $(NASM) 2>/dev/null),)
$(B)/unit/test_elf: $(B)/guest.elf
endif
