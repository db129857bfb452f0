# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_ipi
test_ipi_MODS := ipi percpu apic_icr fake_cpu
