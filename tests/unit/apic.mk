UNIT_TESTS += test_apic_icr
test_apic_icr_SRCS := tests/unit/test_apic_icr.c arch/apic_icr.c
