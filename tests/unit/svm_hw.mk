# tests/unit/svm_hw.mk - unit tests of the hardware-facing exit paths: cache
# instructions, exception intercepts, event re-injection, CPUID hiding.
UNIT_TESTS += test_exits_hw
test_exits_hw_SRCS := tests/unit/test_exits_hw.c hv/svm/vmcb_build.c \
	hv/svm/vmcb_pm.c hv/svm/pause.c $(SVM_EXIT_SRCS)
