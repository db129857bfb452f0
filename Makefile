# SPDX-License-Identifier: GPL-2.0-only
# Makefile - builds minhv.efi (gnu-efi, boot/ only) and the test guest,
# runs them under QEMU/OVMF, and runs the unit and boot tests.

# SELFTEST=0: no in-hypervisor self-tests or benchmarks (hv/selftest/), only
# the empty stage table; it builds into its own B (default build/noselftest)
# so that objects of the two builds never mix.
SELFTEST ?= 1
ifeq ($(SELFTEST),0)
B ?= build/noselftest
endif
B ?= build
EFIINC := /usr/include/efi
EFILIB := /usr/lib

CC := gcc
LD := ld
NASM := nasm
OBJCOPY := objcopy

WARN := -Wall -Wextra -Werror
# -mgeneral-regs-only: no SSE state to save in exit or interrupt paths.
HV_CFLAGS = -std=c11 $(WARN) $(OPT) -g -ffreestanding -fno-stack-protector \
	-fno-stack-check -fshort-wchar -mno-red-zone -mgeneral-regs-only \
	-fpic -fvisibility=hidden -fno-omit-frame-pointer -fno-strict-aliasing \
	-fcf-protection=none -ffunction-sections -fdata-sections -I. -MMD -MP
# What runs once at boot, parses input or only reports is built for size
# (-Os), so minhv.efi stays under 256 KiB; the exit path, IPIs, MTRR and
# SNP passes and everything a guest runs stay -O2 (make bench measures them).
# The CPUID model (hv/cpuid/) runs when a vCPU starts and on the CPUID
# exits its per-vCPU table does not answer (hv/svm/exit_cpuid.c): -Os.
OPT := -O2
# Whole directories, and single files; a listed path that does not exist
# stops make (a rename must not drop -Os without a word). The TSC
# calibration, the RAS set-up and the I/O APIC masking run once at boot;
# SVM and SNP enable once; a guest is created, run (hv/run/run.c) and
# reported once; KTAP, the parking and RMPOPT summaries only report.
SIZE_OPT_DIRS := boot hv/acpi hv/options hv/selftest hv/loader hv/cpuid \
	hv/time hv/ras
SIZE_OPT_FILES := hv/run/main.c hv/smp/boot.c hv/smp/plan.c hv/smp/policy.c \
	hv/smp/smp.c hv/smp/ap.c hv/smp/time.c hv/features.c hv/run/ioapic.c \
	arch/ioapic.c arch/paging.c lib/fmt.c hv/platform/acpi_tables.c \
	hv/vmcb/vmcb_dump.c hv/vmcb/vmcb_check.c hv/run/run.c \
	hv/guest/guest.c hv/guest/report.c hv/svm/svm.c hv/snp/snp.c \
	hv/ktap.c hv/park/summary.c hv/snp/rmpopt_stats.c
SIZE_OPT_NOT := hv/selftest/ipi_bench.c
$(foreach p,$(SIZE_OPT_DIRS) $(SIZE_OPT_FILES) $(SIZE_OPT_NOT),$(if \
	$(wildcard $(p)),,$(error SIZE_OPT: $(p) does not exist (moved? \
	update the list in the Makefile))))
BOOT_CFLAGS = $(HV_CFLAGS) -I$(EFIINC) -I$(EFIINC)/x86_64 -DGNU_EFI_USE_MS_ABI
# --gc-sections: a function or object nothing reaches from the entry point
# (_start in gnu-efi's crt0) is left out of the image; with -ffunction-
# and -fdata-sections each is a section of its own. What only the PE
# loader reads (.reloc) is KEEP() in linker.ld.
HV_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic -T linker.ld \
	--no-undefined --build-id=none --gc-sections

# Every source at any depth (a new hv/x/y/ is built without a Makefile edit).
HV_C := $(sort $(shell find arch hv lib -name '*.c'))
ifeq ($(SELFTEST),0)
HV_C := $(filter-out $(filter-out hv/selftest/table.c,$(filter \
	hv/selftest/%,$(HV_C))),$(HV_C))
HV_CFLAGS += -DMINHV_SELFTEST=0
endif
BOOT_C := $(sort $(shell find boot -name '*.c'))
SIZE_OPT_C := $(filter-out $(SIZE_OPT_NOT),$(filter $(SIZE_OPT_DIRS:=/%) \
	$(SIZE_OPT_FILES),$(HV_C) $(BOOT_C)))
HV_ASM := $(sort $(shell find arch -name '*.asm'))
HV_OBJ := $(HV_C:%.c=$(B)/%.o) $(BOOT_C:%.c=$(B)/%.o) \
	$(HV_ASM:%.asm=$(B)/%.o) $(B)/guest_blob.o
$(SIZE_OPT_C:%.c=$(B)/%.o): OPT := -Os

.PHONY: all run test unit boot-test image bench clean setup format check-layout kut
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

# The built-in guest is embedded without symbols or debug info (about 30 KiB
# instead of 170); build/guest.elf keeps them for gdb and addr2line.
$(B)/guest.stripped.elf: $(B)/guest.elf
	@echo '  STRIP   $@'
	@$(OBJCOPY) --strip-all $< $@

$(B)/guest_blob.o: $(B)/guest.stripped.elf tools/blob.asm
	@echo '  NASM    $@'
	@$(NASM) -f elf64 -DBLOB='"$<"' -DNAME=builtin_guest tools/blob.asm -o $@

# libefi carries its own memset/memcpy; ours (lib/string.c) must win, so
# link against a copy where libefi's are weak.
$(B)/libefi.a: $(EFILIB)/libefi.a
	@mkdir -p $(B)
	@$(OBJCOPY) --weaken-symbol=memset --weaken-symbol=memcpy $< $@

$(B)/minhv.so: $(HV_OBJ) linker.ld $(B)/libefi.a
	@echo '  LD      $@'
	@$(LD) $(HV_LDFLAGS) $(EFILIB)/crt0-efi-x86_64.o $(HV_OBJ) \
		$(B)/libefi.a $(EFILIB)/libgnuefi.a -o $@

# --strip-all: no COFF symbol table in the release image (30 KiB); stack
# traces print minhv.efi offsets, which addr2line resolves in build/minhv.so.
# No .dynsym either (1 KiB): crt0's _relocate() reads only .dynamic and
# .rela, whose entries are all R_X86_64_RELATIVE (no symbol), and .dynstr,
# which the symbols would need, was never copied.
$(B)/minhv.efi: $(B)/minhv.so
	@echo '  OBJCOPY $@'
	@$(OBJCOPY) -j .text -j .sdata -j .data -j .bss -j .dynamic -j .rel \
		-j .rela -j .reloc --target efi-app-x86_64 \
		--subsystem=10 --strip-all $< $@

include guest/guest.mk

# Hostile multiboot guests for the virtual local APIC (tests/boot/65-*.t):
# a 1-count periodic timer, and a self-IPI flood; and one that spins with
# CR4.MCE on for the machine-check test (tests/boot/14-mce-nmi.t).
MB_HOSTILE := $(B)/mb-hostile/apic_timer.bin $(B)/mb-hostile/apic_ipi.bin \
	$(B)/mb-hostile/mce_spin.bin
$(B)/mb-hostile/apic_timer.bin: guest/mb-hostile/apic_storm.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin -DTIMER $< -o $@
$(B)/mb-hostile/apic_ipi.bin: guest/mb-hostile/apic_storm.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin $< -o $@
$(B)/mb-hostile/mce_spin.bin: guest/mb-hostile/mce_spin.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin $< -o $@
all: $(MB_HOSTILE)

# Files only: build/linux holds unpacked directories named *.d (etc/init.d).
-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)

# Host unit tests. Each tests/unit/*.mk adds a suite name to UNIT_TESTS and
# sets <name>_MODS, module names that tests/unit/modules.mk maps to sources
# (MOD_<module>), and optionally <name>_SRCS, further files of the suite
# itself; tests/unit/<name>.c is always linked. Every source compiles once
# into build/unit-obj/<path>.o with a dependency file, so touching a header
# rebuilds the objects that include it and relinks only the suites that
# link them.
UNIT_TESTS :=
UNIT_LEFT_OUT :=
include tests/unit/modules.mk
include $(filter-out tests/unit/modules.mk,$(wildcard tests/unit/*.mk))
UT_CFLAGS := -std=c11 $(WARN) -g -O1 -I. \
	-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
UT_OBJ_DIR := $(B)/unit-obj

# The objects of suite $(1): its own sources, then each module's; a module
# name without a MOD_ entry stops make. Prebuilt objects (.o) pass through.
ut_mod = $(if $(filter undefined,$(origin MOD_$(1))),$(error unit suite \
	$(2): unknown module '$(1)' (add MOD_$(1) to tests/unit/modules.mk)),$(MOD_$(1)))
ut_objs = $(sort $(patsubst %.c,$(UT_OBJ_DIR)/%.o,tests/unit/$(1).c \
	$($(1)_SRCS) $(foreach m,$($(1)_MODS),$(call ut_mod,$(m),$(1)))))

$(UT_OBJ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo '  HOSTCC  $<'
	@$(CC) $(UT_CFLAGS) -MMD -MP -c $< -o $@

define unit_rule
$(B)/unit/$(1): $(call ut_objs,$(1))
	@mkdir -p $$(dir $$@)
	@echo '  HOSTLD  $$@'
	@$$(CC) $$(UT_CFLAGS) $$(filter %.o,$$^) -lcmocka -o $$@
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))

# Only gcc and cmocka are needed (not tools/setup.sh's QEMU toolchain);
# suites that need more are left out with a line saying so.
unit: $(UNIT_TESTS:%=$(B)/unit/%)
	@fail=0; for t in $(UNIT_TESTS:%=$(B)/unit/%); do \
		$$t || fail=1; done; \
	for s in $(UNIT_LEFT_OUT); do \
		echo "unit: left out $${s%%:*} (no $${s#*:} found)"; done; \
	if [ $$fail = 0 ]; then echo "unit: all suites passed"; \
	else echo "unit: FAILURES"; exit 1; fi

boot-test: setup all
	prove -v tests/boot/

# arch/ includes nothing from hv/ or boot/, lib/ nothing from hv/ or arch/,
# guest/ nothing from hv/ or arch/, hv/ nothing from boot/; the hv/ rooms
# form no cycle and follow their order; private headers stay home
# (docs/ARCHITECTURE.md).
check-layout:
	@tools/check-layout.sh

test: setup
	$(MAKE) check-layout
	$(MAKE) unit
	tools/bench.sh --self-test
	python3 tools/serial_drive.py --self-test
	$(MAKE) all
	tools/check-size.sh
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
# Linux as its users run it: Debian's kernel and busybox-static, console=ttyS0
# alone, a shell over the serial line, the ext4 disk (tools/linux-stages.sh;
# LINUX_TARGET=bare|minhv|both, LINUX_STAGES="shell smp reboot poweroff").
# linux-init: the project's own /init with the work-around command lines
# (tools/linux-run.sh). LINUX_IMAGE=<bzImage> boots another kernel in both.
.PHONY: linux linux-init
linux: setup all
	tools/linux-stages.sh
linux-init: setup all
	tools/linux-run.sh

image: setup all
	tools/mkimage.sh $(B)/minhv.efi $(B)/guest.elf $(B)/minhv.img

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)
