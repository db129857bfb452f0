# tests/unit/svm.mk - unit tests of the SVM engine: VMCB, PAUSE policy,
# NPT, exit decoding, exit handlers and hypercall validation.
SVM_FAKES := tests/doubles/fake_cpu.c tests/doubles/fake_console.c \
	hv/log.c hv/lib/fmt.c
UNIT_TESTS += test_vmcb test_pause test_npt test_exit_decode test_exits \
	test_hypercall
test_vmcb_SRCS := tests/unit/test_vmcb.c hv/vmcb_build.c hv/vmcb_pm.c \
	hv/vmcb_check.c hv/svm_pause.c hv/lib/fmt.c
test_pause_SRCS := tests/unit/test_pause.c hv/svm_pause.c hv/lib/fmt.c
test_npt_SRCS := tests/unit/test_npt.c hv/npt.c hv/mm.c $(SVM_FAKES)
test_exit_decode_SRCS := tests/unit/test_exit_decode.c hv/exit_decode.c \
	hv/lib/fmt.c
SVM_EXIT_SRCS := hv/exit.c hv/exit_cpuid.c hv/exit_msr.c hv/exit_io.c \
	hv/exit_misc.c hv/exit_invalid.c hv/vmcb_check.c hv/vmcb_dump.c \
	hv/hypercall.c hv/guest_mem.c hv/guest_console.c hv/vcpu_ops.c \
	hv/guest_stop.c hv/exit_decode.c hv/features.c \
	tests/unit/svm_fixture.c $(SVM_FAKES)
test_exits_SRCS := tests/unit/test_exits.c $(SVM_EXIT_SRCS)
test_hypercall_SRCS := tests/unit/test_hypercall.c $(SVM_EXIT_SRCS)
UNIT_TESTS += test_svm_enable
test_svm_enable_SRCS := tests/unit/test_svm_enable.c hv/svm.c hv/mm.c \
	hv/features.c $(SVM_FAKES)
