# SPDX-License-Identifier: GPL-2.0-only
# guest/guest.mk - the test guest: a freestanding 64-bit ELF with its own
# linker script, embedded in minhv.efi as the built-in guest.
# -Os: the guest is embedded in minhv.efi, which must stay under 256 KiB
# (tools/check-size.sh); only the benchmark scenario, whose timed loops
# `make bench` and tests/boot/70-exit-budget.t count in instructions,
# stays -O2 (its exits are inline: guest/x86.h, guest/hypercall.h).
GUEST_OPT := -Os
GUEST_CFLAGS = -std=c11 $(WARN) $(GUEST_OPT) -g -ffreestanding \
	-fno-stack-protector -fno-pic -fno-pie -mno-red-zone \
	-mgeneral-regs-only -mcmodel=small -fno-omit-frame-pointer \
	-fcf-protection=none -I. -MMD -MP
GUEST_C := $(wildcard guest/*.c guest/scenarios/*.c) lib/fmt.c lib/string.c lib/select.c
GUEST_ASM := $(wildcard guest/*.asm)
GUEST_OBJ := $(GUEST_C:%.c=$(B)/guest-obj/%.o) $(GUEST_ASM:%.asm=$(B)/guest-obj/%.o)
$(B)/guest-obj/guest/scenarios/bench.o: GUEST_OPT := -O2

# The flags live here and in the Makefile ($(WARN)): an object built with
# old ones must not survive an edit of either.
$(B)/guest-obj/%.o: %.c guest/guest.mk Makefile
	@mkdir -p $(dir $@)
	@echo '  CC      $< (guest)'
	@$(CC) $(GUEST_CFLAGS) -c $< -o $@

$(B)/guest-obj/%.o: %.asm guest/guest.mk Makefile
	@mkdir -p $(dir $@)
	@echo '  NASM    $< (guest)'
	@$(NASM) -f elf64 -g -I. -MD $(@:.o=.d) -MP $< -o $@

# -n: segments are not page-aligned in the file (the loader copies p_filesz
# bytes from p_offset), which saves the 4 KiB gaps before and between them.
$(B)/guest.elf: $(GUEST_OBJ) guest/linker.ld guest/guest.mk
	@echo '  LD      $@'
	@$(LD) -nostdlib -static -n -T guest/linker.ld --build-id=none $(GUEST_OBJ) -o $@
