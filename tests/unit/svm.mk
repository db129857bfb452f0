# tests/unit/svm.mk - unit tests of the SVM engine: VMCB, PAUSE policy,
# NPT, exit decoding, exit handlers and hypercall validation.
SVM_FAKES := tests/doubles/fake_cpu.c tests/doubles/fake_console.c \
	hv/log.c lib/fmt.c
UNIT_TESTS += test_vmcb test_pause test_npt test_exit_decode test_exits \
	test_hypercall
test_vmcb_SRCS := tests/unit/test_vmcb.c hv/svm/vmcb_build.c hv/svm/vmcb_pm.c \
	hv/svm/vmcb_check.c hv/svm/pause.c lib/fmt.c
test_pause_SRCS := tests/unit/test_pause.c hv/svm/pause.c lib/fmt.c
test_npt_SRCS := tests/unit/test_npt.c hv/svm/npt.c hv/mm.c $(SVM_FAKES)
test_exit_decode_SRCS := tests/unit/test_exit_decode.c hv/svm/exit_decode.c \
	lib/fmt.c
SVM_EXIT_SRCS := hv/svm/exit.c hv/svm/exit_cpuid.c hv/svm/exit_msr.c hv/svm/exit_io.c \
	hv/svm/exit_misc.c hv/svm/exit_invalid.c hv/svm/vmcb_check.c hv/svm/vmcb_dump.c \
	hv/guest/hypercall.c hv/guest/mem.c hv/guest/console.c hv/guest/vcpu_ops.c \
	hv/guest/stop.c hv/svm/exit_decode.c hv/features.c hv/svm/exit_msr_pmu.c \
	hv/platform/ports.c hv/platform/uart.c hv/platform/debug_exit.c \
	hv/platform/fw_cfg.c hv/platform/pm_timer.c hv/platform/lapic.c \
	hv/platform/lapic_mmio.c hv/platform/lapic_msr.c hv/emul/mmio.c \
	hv/emul/regs.c hv/emul/walk.c hv/emul/decode.c \
	tests/unit/svm_fixture.c $(SVM_FAKES)
test_exits_SRCS := tests/unit/test_exits.c $(SVM_EXIT_SRCS)
test_hypercall_SRCS := tests/unit/test_hypercall.c $(SVM_EXIT_SRCS)
UNIT_TESTS += test_svm_enable
test_svm_enable_SRCS := tests/unit/test_svm_enable.c hv/svm/svm.c hv/mm.c \
	hv/features.c $(SVM_FAKES)
