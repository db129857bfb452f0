UNIT_TESTS += test_acpi test_acpi_madt
ACPI_UT_SRCS := tests/unit/acpi_fixture.c hv/acpi.c hv/acpi_madt.c \
	hv/acpi_spcr.c hv/acpi_print.c hv/log.c hv/lib/fmt.c \
	tests/doubles/fake_console.c
test_acpi_SRCS := tests/unit/test_acpi.c $(ACPI_UT_SRCS)
test_acpi_madt_SRCS := tests/unit/test_acpi_madt.c $(ACPI_UT_SRCS)
