UNIT_TESTS += test_ipi
test_ipi_SRCS := tests/unit/test_ipi.c hv/smp/ipi.c hv/percpu.c arch/apic_icr.c \
	tests/doubles/fake_cpu.c
