# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/svm.mk - unit tests of the SVM engine: VMCB, PAUSE policy,
# NPT, exit decoding, exit handlers and hypercall validation.
UNIT_TESTS += test_vmcb test_pause test_npt test_exit_decode test_exits \
	test_exits_io test_exits_npf test_exits_invalid test_exits_cpuid \
	test_exits_msr test_hypercall test_svm_enable
test_vmcb_MODS := vmcb vmcb_check pause asid features log fmt fake_cpu \
	fake_console
test_pause_MODS := pause fmt
test_npt_MODS := npt pgtable mm log fmt fake_cpu fake_console
# exit_name()/exit_kind_of() read the exit table, which names every handler.
test_exit_decode_MODS = $(test_exits_MODS)
test_exits_MODS := exits exit_decode vmcb vmcb_check vmcb_dump pause guest_ops \
	platform vlapic vlapic_exit emul features vcpu_fpu cpuid \
	ras ktap percpu svm_fixture log fmt fake_cpu fake_console fake_trap
test_hypercall_MODS := $(test_exits_MODS)
test_svm_enable_MODS := svm vcpu_fpu cpuid mm features log fmt fake_cpu fake_console
test_exits_cpuid_MODS = $(test_exits_MODS)
test_exits_msr_MODS = $(test_exits_MODS)
test_exits_io_MODS = $(test_exits_MODS)
test_exits_npf_MODS = $(test_exits_MODS)
test_exits_invalid_MODS = $(test_exits_MODS)
