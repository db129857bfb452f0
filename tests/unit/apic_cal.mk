# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/apic_cal.mk - LAPIC timer calibration arithmetic.
UNIT_TESTS += test_apic_cal
test_apic_cal_MODS := apic_cal
