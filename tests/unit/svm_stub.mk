# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/svm_stub.mk - the real VMRUN stub (arch/svm.asm) assembled
# with tests/doubles/svm_insn.inc in place of arch/svm_insn.inc: each SVM
# instruction, WRMSR, STI/CLI and the start of the RSB fill call into the
# CPU double (tests/doubles/fake_svm.c), so the suite checks the stub's own
# order (host SPEC_CTRL before STGI, the RSB fill right after #VMEXIT).
# Without NASM the suite is left out, and make unit says so.
ifneq ($(shell command -v $(NASM) 2>/dev/null),)
UNIT_TESTS += test_svm_stub
else
UNIT_LEFT_OUT += test_svm_stub:$(NASM)
endif
test_svm_stub_MODS := svm_stub fake_svm spec_ctrl park_fakes features log \
	fmt fake_cpu fake_console

$(B)/unit-obj/arch/svm_fake.o: arch/svm.asm
	@mkdir -p $(dir $@)
	@echo '  NASM    $< (tests/doubles/svm_insn.inc)'
	@$(NASM) -f elf64 -g -I. -Itests/doubles/ -MD $(@:.o=.d) -MP $< -o $@
