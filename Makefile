# Makefile - builds minhv.efi (gnu-efi, boot/ only) and the test guest,
# runs them under QEMU/OVMF, and runs the unit and boot tests.

B := build
EFIINC := /usr/include/efi
EFILIB := /usr/lib

CC := gcc
LD := ld
NASM := nasm
OBJCOPY := objcopy

WARN := -Wall -Wextra -Werror
# -mgeneral-regs-only: no SSE state to save in exit or interrupt paths.
HV_CFLAGS := -std=c11 $(WARN) -O2 -g -ffreestanding -fno-stack-protector \
	-fno-stack-check -fshort-wchar -mno-red-zone -mgeneral-regs-only \
	-fpic -fvisibility=hidden -fno-omit-frame-pointer -fno-strict-aliasing \
	-fcf-protection=none -I. -MMD -MP
BOOT_CFLAGS := $(HV_CFLAGS) -I$(EFIINC) -I$(EFIINC)/x86_64 -DGNU_EFI_USE_MS_ABI
HV_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic -T linker.ld \
	--no-undefined --build-id=none

HV_C := $(wildcard arch/*.c hv/*.c hv/*/*.c lib/*.c)
BOOT_C := $(wildcard boot/*.c)
HV_ASM := $(wildcard arch/*.asm)
HV_OBJ := $(HV_C:%.c=$(B)/%.o) $(BOOT_C:%.c=$(B)/%.o) \
	$(HV_ASM:%.asm=$(B)/%.o) $(B)/guest_blob.o

.PHONY: all run test unit boot-test image bench clean setup format kut
all: $(B)/minhv.efi $(B)/guest.elf

setup:
	@tools/setup.sh

$(B)/boot/%.o: boot/%.c
	@mkdir -p $(dir $@)
	@echo '  CC      $<'
	@$(CC) $(BOOT_CFLAGS) -c $< -o $@

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo '  CC      $<'
	@$(CC) $(HV_CFLAGS) -c $< -o $@

$(B)/%.o: %.asm
	@mkdir -p $(dir $@)
	@echo '  NASM    $<'
	@$(NASM) -f elf64 -g -I. -MD $(@:.o=.d) -MP $< -o $@

$(B)/guest_blob.o: $(B)/guest.elf tools/blob.asm
	$(NASM) -f elf64 -DBLOB='"$(B)/guest.elf"' -DNAME=builtin_guest tools/blob.asm -o $@

# libefi carries its own memset/memcpy; ours (lib/string.c) must win, so
# link against a copy where libefi's are weak.
$(B)/libefi.a: $(EFILIB)/libefi.a
	@mkdir -p $(B)
	@$(OBJCOPY) --weaken-symbol=memset --weaken-symbol=memcpy $< $@

$(B)/minhv.so: $(HV_OBJ) linker.ld $(B)/libefi.a
	@echo '  LD      $@'
	@$(LD) $(HV_LDFLAGS) $(EFILIB)/crt0-efi-x86_64.o $(HV_OBJ) \
		$(B)/libefi.a $(EFILIB)/libgnuefi.a -o $@

$(B)/minhv.efi: $(B)/minhv.so
	@echo '  OBJCOPY $@'
	@$(OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .reloc --target efi-app-x86_64 \
		--subsystem=10 $< $@

include guest/guest.mk

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# Host unit tests: each tests/unit/*.mk adds a name to UNIT_TESTS and sets
# <name>_SRCS (the test, the real modules, and the doubles it links).
UNIT_TESTS :=
include $(wildcard tests/unit/*.mk)
UT_CFLAGS := -std=c11 $(WARN) -g -O1 -I. -DMINHV_HOST_TEST \
	-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
define unit_rule
$(B)/unit/$(1): $$($(1)_SRCS) $$(wildcard tests/doubles/*.h)
	@mkdir -p $$(dir $$@)
	@echo '  HOSTCC  $$@'
	@$$(CC) $$(UT_CFLAGS) $$($(1)_SRCS) -lcmocka -o $$@
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))

unit: setup $(UNIT_TESTS:%=$(B)/unit/%)
	@fail=0; for t in $(UNIT_TESTS:%=$(B)/unit/%); do \
		$$t || fail=1; done; \
	if [ $$fail = 0 ]; then echo "unit: all suites passed"; \
	else echo "unit: FAILURES"; exit 1; fi

boot-test: setup all
	prove -v tests/boot/

test: setup
	$(MAKE) unit
	tools/bench.sh --self-test
	$(MAKE) boot-test

run: setup all
	tests/boot/run-qemu.sh --name run --smp 4 --cpu EPYC,+x2apic --console

# Not part of `make test`: boots the benchmark scenarios (tools/bench.sh);
# BASE=<rev> also builds and runs that revision and prints new/base ratios.
bench: all
	@tools/setup.sh --bench
	tools/bench.sh $(if $(BASE),--base $(BASE)) $(BENCH_ARGS)

# kvm-unit-tests on bare QEMU and under minhv, side by side (tools/kut.sh);
# KUT_TESTS="setjmp memory" runs a subset, KUT_SRC=<dir|tarball> the source.
kut: all
	tools/kut.sh

image: setup all
	tools/mkimage.sh $(B)/minhv.efi $(B)/guest.elf $(B)/minhv.img

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)
