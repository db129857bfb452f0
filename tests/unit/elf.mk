UNIT_TESTS += test_elf
test_elf_SRCS := tests/unit/test_elf.c hv/guest/elf.c hv/log.c lib/fmt.c \
	tests/doubles/fake_console.c
# The test also loads the real guest image (build/guest.elf) when present.
$(B)/unit/test_elf: $(B)/guest.elf
