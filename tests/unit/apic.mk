# SPDX-License-Identifier: GPL-2.0-only
UNIT_TESTS += test_apic_icr test_apic
test_apic_icr_MODS := apic_icr
test_apic_MODS := apic apic_icr fake_cpu
