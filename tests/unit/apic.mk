UNIT_TESTS += test_apic_icr test_apic
test_apic_icr_SRCS := tests/unit/test_apic_icr.c arch/apic_icr.c
test_apic_SRCS := tests/unit/test_apic.c arch/apic.c arch/apic_x2apic.c \
	arch/apic_xapic.c arch/apic_icr.c tests/doubles/fake_cpu.c
