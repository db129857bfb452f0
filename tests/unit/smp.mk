# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/smp.mk - SMP bring-up: the SIPI state machine, the plan, the
# policy and the AP trampoline.
UNIT_TESTS += test_smp_boot test_smp_plan test_smp_policy
# The real trampoline, assembled by NASM: without NASM (make unit needs
# only gcc and cmocka) the suite is left out, and make unit says so.
ifneq ($(shell command -v $(NASM) 2>/dev/null),)
UNIT_TESTS += test_trampoline
else
UNIT_LEFT_OUT += test_trampoline:$(NASM)
endif
test_smp_boot_MODS := smp_boot log fmt fake_console
test_smp_plan_MODS := smp_plan log fmt fake_console
test_smp_policy_MODS := smp_policy
test_trampoline_MODS := trampoline
