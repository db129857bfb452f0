# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_acpi test_acpi_madt test_acpi_timers
test_acpi_MODS := acpi acpi_fixture log fmt fake_console
test_acpi_madt_MODS := $(test_acpi_MODS)
test_acpi_timers_MODS := $(test_acpi_MODS)
