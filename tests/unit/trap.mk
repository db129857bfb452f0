# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/trap.mk - the trap dispatcher's unexpected vectors.
UNIT_TESTS += test_trap
test_trap_MODS := trap apic apic_icr ras ktap percpu features log fmt fake_cpu \
	fake_console
