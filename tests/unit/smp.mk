# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_smp_boot test_smp_plan test_smp_policy test_trampoline
test_smp_boot_MODS := smp_boot log fmt fake_console
test_smp_plan_MODS := smp_plan log fmt fake_console
test_smp_policy_MODS := smp_policy
test_trampoline_MODS := trampoline
