UNIT_TESTS += test_acpi test_acpi_madt
ACPI_UT_SRCS := tests/unit/acpi_fixture.c hv/acpi/acpi.c hv/acpi/madt.c \
	hv/acpi/spcr.c hv/acpi/print.c hv/log.c lib/fmt.c \
	tests/doubles/fake_console.c
test_acpi_SRCS := tests/unit/test_acpi.c $(ACPI_UT_SRCS)
test_acpi_madt_SRCS := tests/unit/test_acpi_madt.c $(ACPI_UT_SRCS)
