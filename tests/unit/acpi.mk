UNIT_TESTS += test_acpi
test_acpi_SRCS := tests/unit/test_acpi.c hv/acpi.c hv/acpi_madt.c \
	hv/acpi_spcr.c hv/acpi_print.c hv/log.c hv/lib/fmt.c \
	tests/doubles/fake_console.c
