# tests/unit/vcpu_spec.mk - the guest SPEC_CTRL around VMRUN (write order).
UNIT_TESTS += test_vcpu_spec
test_vcpu_spec_SRCS := tests/unit/test_vcpu_spec.c hv/guest/vcpu_spec.c \
	$(SPEC_UT_DEPS)
