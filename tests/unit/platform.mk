# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/platform.mk - the guest platform: ACPI tables parsed back with
# hv/acpi, the PM timer, fw_cfg and the multiboot loader.
UNIT_TESTS += test_platform
test_platform_MODS := platform_tables multiboot elf acpi log fmt \
	fake_console fake_cpu
