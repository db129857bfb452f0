# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/multiboot.mk - the loaders' range check (hv/loader/place.c) and
# the multiboot loader: a.out kludge, ELF32, module and boot information.
UNIT_TESTS += test_multiboot
test_multiboot_MODS := multiboot elf log fmt fake_console
