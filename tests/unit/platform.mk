UNIT_TESTS += test_platform
test_platform_SRCS := tests/unit/test_platform.c hv/platform/acpi_tables.c \
	hv/platform/pm_timer.c hv/platform/fw_cfg.c hv/guest/multiboot_info.c \
	hv/guest/multiboot.c hv/guest/elf.c hv/acpi/acpi.c hv/acpi/madt.c \
	hv/acpi/spcr.c hv/acpi/print.c hv/log.c lib/fmt.c \
	tests/doubles/fake_console.c tests/doubles/fake_cpu.c
