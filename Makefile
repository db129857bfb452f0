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

# The stricter warnings the tree compiles clean under (REVIEW-ARCHITECTURE
# section 7); for the hypervisor, the test guest and the unit tests alike.
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wundef \
	-Wcast-align -Wvla -Wpointer-arith -Wimplicit-fallthrough \
	-Wmissing-prototypes
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
# reported once; KTAP, the parking and RMPOPT summaries only report; the
# speculation policy is decided and logged once and applied per CPU and
# per vCPU start (hv/park/spec_ctrl*.c; the stub does the per-exit part);
# a vCPU's waits, state changes, S3, string I/O and the rare exits (HLT,
# NPF, INVALID, XSETBV) and devices (RTC, PM1, fw_cfg) are not the exit
# path make bench measures; nor are the boot profile, the NPT, VMCB and
# ASID set-up of a guest, the PIC, the MTRR set-up, SNP firmware and RMP
# set-up, exception exits, the watchdog and the PMU view. Nor is the
# scheduler (hv/sched/, hv/svm/sched_cpu.c): it runs once per vCPU turn,
# on a block or a PAUSE yield, never on the exits make bench times. The
# page allocator and table builder run when a guest is made; the RMP is a
# software model; the log and the Linux view only report; a guest
# programs its I/O APIC's RTEs rarely (the EOI broadcast is a few stores);
# the console hypercall and the FPU switch at a vCPU turn are not exits;
# the 16550's general path neither (a console byte's accesses take
# hv/platform/uart_fast.c from the run loop).
SIZE_OPT_DIRS := boot hv/acpi hv/options hv/selftest hv/loader hv/cpuid \
	hv/time hv/ras hv/sched
SIZE_OPT_FILES := hv/run/main.c hv/smp/boot.c hv/smp/plan.c hv/smp/policy.c \
	hv/smp/smp.c hv/smp/ap.c hv/smp/time.c hv/features.c hv/run/ioapic.c \
	arch/ioapic.c arch/paging.c lib/fmt.c hv/platform/acpi_tables.c \
	hv/vmcb/vmcb_dump.c hv/vmcb/vmcb_check.c hv/run/run.c \
	hv/guest/guest.c hv/guest/report.c hv/svm/svm.c hv/snp/snp.c \
	hv/ktap.c hv/park/summary.c hv/snp/rmpopt_stats.c hv/mtrr/verify.c \
	hv/svm/event_inject.c hv/park/spec_ctrl_policy.c hv/park/spec_ctrl.c \
	hv/guest/wait.c hv/svm/exit_io_str.c hv/guest/s3.c hv/guest/cpu_reset.c \
	hv/guest/stop.c hv/svm/exit_invalid.c hv/svm/exit_xsetbv.c \
	hv/platform/rtc.c hv/platform/acpi_pm.c hv/platform/fw_cfg.c \
	hv/guest/pt.c hv/vmcb/pause.c hv/guest/vcpu_state.c hv/svm/exit_misc.c \
	lib/phrase.c hv/boot_prof.c hv/vmcb/npt.c hv/vmcb/vmcb_build.c \
	hv/vmcb/vmcb_pm.c hv/vmcb/asid.c hv/platform/pic.c \
	hv/svm/exit_cache.c hv/mtrr/state.c hv/mtrr/policy.c hv/mtrr/range.c \
	hv/mtrr/mtrr.c hv/snp/fw.c hv/snp/host_map.c hv/snp/rmpopt_topo.c \
	hv/platform/debug_exit.c hv/view/pmu.c hv/svm/exit_excp.c \
	hv/snp/rmp_hw.c hv/snp/guest.c hv/svm/vcpu_watchdog.c \
	hv/platform/virtio_mmio.c hv/platform/virtq.c hv/platform/virtio_blk.c \
	hv/svm/sched_cpu.c hv/platform/pit.c hv/platform/hpet.c hv/platform/kbc.c \
	hv/platform/reset.c hv/platform/testdev.c hv/platform/mmio_map.c \
	hv/park/park.c hv/mm.c arch/pgtable.c hv/snp/rmp_model.c hv/view/linux.c \
	hv/log.c hv/platform/ioapic.c hv/guest/console.c hv/vcpu/vcpu_fpu.c \
	hv/platform/uart.c
SIZE_OPT_NOT := hv/selftest/ipi_bench.c
$(foreach p,$(SIZE_OPT_DIRS) $(SIZE_OPT_FILES) $(SIZE_OPT_NOT),$(if \
	$(wildcard $(p)),,$(error SIZE_OPT: $(p) does not exist (moved? \
	update the list in the Makefile))))
# gnu-efi's headers as system headers: their #if EFI_DEBUG and old-style
# declarations are theirs, not warnings of ours (-Wundef,
# -Wstrict-prototypes).
BOOT_CFLAGS = $(HV_CFLAGS) -isystem $(EFIINC) -isystem $(EFIINC)/x86_64 \
	-DGNU_EFI_USE_MS_ABI
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

.PHONY: all run test unit boot-test image bench clean setup format check-format check-layout kut
all: $(B)/minhv.efi $(B)/guest.elf

setup:
	@tools/setup.sh

# The flags (and the -Os lists) live here: an object built with old ones
# must not survive an edit of this file.
$(B)/boot/%.o: boot/%.c Makefile
	@mkdir -p $(dir $@)
	@echo '  CC      $<'
	@$(CC) $(BOOT_CFLAGS) -c $< -o $@

$(B)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	@echo '  CC      $<'
	@$(CC) $(HV_CFLAGS) -c $< -o $@

$(B)/%.o: %.asm Makefile
	@mkdir -p $(dir $@)
	@echo '  NASM    $<'
	@$(NASM) -f elf64 -g -I. -Iarch/ -MD $(@:.o=.d) -MP $< -o $@

# The built-in guest is embedded without symbols or debug info (about 30 KiB
# instead of 170); build/guest.elf keeps them for gdb and addr2line.
$(B)/guest.stripped.elf: $(B)/guest.elf
	@echo '  STRIP   $@'
	@$(OBJCOPY) --strip-all $< $@

$(B)/guest_blob.o: $(B)/guest.stripped.elf tools/blob.asm
	@echo '  NASM    $@'
	@$(NASM) -f elf64 -DBLOB='"$<"' -DNAME=builtin_guest tools/blob.asm -o $@

# gnu-efi: crt0 and libgnuefi (_relocate) only. boot/ calls the firmware
# through the system table itself (boot/efi_services.c); libefi, whose
# helpers cost 30 KiB of the image, is not linked (docs/PERFORMANCE.md).
$(B)/minhv.so: $(HV_OBJ) linker.ld
	@echo '  LD      $@'
	@$(LD) $(HV_LDFLAGS) $(EFILIB)/crt0-efi-x86_64.o $(HV_OBJ) \
		$(EFILIB)/libgnuefi.a -o $@

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
# CR4.MCE on for the machine-check test (tests/boot/14-mce-nmi.t). For the
# waits, the vLAPIC and the exits (tests/boot/66-hostile-mb.t): a row of
# checks, and four guests nothing can wake or emulate (mbh_<case>.bin,
# built with -D<CASE>).
MBH_CASES := cli_hlt init_self s3 walk_apic
MB_HOSTILE := $(B)/mb-hostile/apic_timer.bin $(B)/mb-hostile/apic_ipi.bin \
	$(B)/mb-hostile/mce_spin.bin $(B)/mb-hostile/mbh_checks.bin \
	$(MBH_CASES:%=$(B)/mb-hostile/mbh_%.bin)
$(B)/mb-hostile/apic_timer.bin: guest/mb-hostile/apic_storm.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin -DTIMER $< -o $@
$(B)/mb-hostile/apic_ipi.bin: guest/mb-hostile/apic_storm.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin $< -o $@
$(B)/mb-hostile/mce_spin.bin: guest/mb-hostile/mce_spin.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin $< -o $@
$(B)/mb-hostile/mbh_checks.bin: guest/mb-hostile/mb_hostile.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin $< -o $@
$(B)/mb-hostile/mbh_%.bin: guest/mb-hostile/mb_hostile.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin -D$(shell echo $* | tr a-z A-Z) $< -o $@
all: $(MB_HOSTILE)

# A multiboot guest that times a foreign guest's common exits (make bench
# and tests/boot/70-exit-budget.t).
MB_BENCH := $(B)/mb-bench/exits.bin
$(B)/mb-bench/%.bin: guest/mb-bench/%.asm
	@mkdir -p $(dir $@)
	@$(NASM) -f bin $< -o $@
all: $(MB_BENCH)

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
# -iquote tests/doubles/inline: its arch/cpu_inline.h (CLI/STI through the
# CPU double) is found before the real one.
UT_CFLAGS := -std=c11 $(WARN) -g -O1 -iquote tests/doubles/inline -I. \
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

# Every production source is linked by some unit suite or named, with its
# reason, in tests/unit/modules.mk's UNIT_NOT_TESTABLE_YET; a name there
# that a suite links after all, or that no longer exists, fails too. Part
# of check-layout.
UT_PROD_C := $(sort $(shell find arch boot hv lib -name '*.c'))
UT_SUITES_ALL := $(UNIT_TESTS) $(foreach s,$(UNIT_LEFT_OUT),$(firstword \
	$(subst :, ,$(s))))
UT_LINKED_C := $(sort $(patsubst $(UT_OBJ_DIR)/%.o,%.c,$(filter \
	$(UT_OBJ_DIR)/%.o,$(foreach t,$(UT_SUITES_ALL),$(call ut_objs,$(t))))))
UT_UNLISTED := $(filter-out $(UT_LINKED_C) $(UNIT_NOT_TESTABLE_YET),$(UT_PROD_C))
UT_STALE := $(filter $(UT_LINKED_C),$(UNIT_NOT_TESTABLE_YET)) \
	$(filter-out $(UT_PROD_C),$(UNIT_NOT_TESTABLE_YET))
.PHONY: check-unit-map
check-unit-map:
	@rc=0; for f in $(UT_UNLISTED); do \
		echo "check-unit-map: $$f is linked by no unit suite (add it to a suite's module, or to UNIT_NOT_TESTABLE_YET in tests/unit/modules.mk with the reason)"; \
		rc=1; done; \
	if grep -nE '^UNIT_NOT_TESTABLE_YET \+= [^#]*$$' tests/unit/modules.mk; then \
		echo "check-unit-map: each UNIT_NOT_TESTABLE_YET line gives its reason after a #"; \
		rc=1; fi; \
	for f in $(UT_STALE); do \
		echo "check-unit-map: $$f is in UNIT_NOT_TESTABLE_YET but is linked by a suite or does not exist (drop it from tests/unit/modules.mk)"; \
		rc=1; done; \
	if [ $$rc = 0 ]; then echo "check-unit-map: $(words $(filter $(UT_PROD_C),$(UT_LINKED_C))) production sources linked by unit suites, $(words $(UNIT_NOT_TESTABLE_YET)) named as not testable yet"; fi; \
	exit $$rc

# Two boots at a time on a two-core machine (each TCG vCPU is one host
# thread, mostly one core busy per boot); the Linux boots share
# build/linux and run one after the other. BOOT_JOBS=1 for one at a time.
BOOT_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 2 ] && n=2; echo $$n)
boot-test: setup all
	prove -v --timer -j$(BOOT_JOBS) --rules='seq=tests/boot/5*.t' \
		--rules='par=**' tests/boot/

# arch/ includes nothing from hv/ or boot/, lib/ nothing from hv/ or arch/,
# guest/ nothing from hv/ or arch/, hv/ nothing from boot/; the hv/ rooms
# form no cycle and follow their order; private headers stay home
# (docs/ARCHITECTURE.md).
check-layout:
	@rc=0; tools/check-layout.sh || rc=1; \
	$(MAKE) -s --no-print-directory check-unit-map || rc=1; exit $$rc

test: setup
	$(MAKE) check-layout
	$(MAKE) check-format
	$(MAKE) -j$(BOOT_JOBS) unit
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
# LINUX_TARGET=bare|minhv|both, LINUX_STAGES="user smp autoreboot autopoweroff").
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

# Every C file as .clang-format lays it out; tables laid out by hand are
# fenced with /* clang-format off */ ... /* clang-format on */.
check-format:
	@clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h') && \
	  echo "check-format: every C file as .clang-format lays it out"

clean:
	rm -rf $(B)
