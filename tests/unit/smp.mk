UNIT_TESTS += test_smp_boot test_smp_plan test_smp_policy
SMP_UT_LOG := hv/log.c lib/fmt.c tests/doubles/fake_console.c
test_smp_boot_SRCS := tests/unit/test_smp_boot.c hv/smp/boot.c $(SMP_UT_LOG)
test_smp_plan_SRCS := tests/unit/test_smp_plan.c hv/smp/plan.c $(SMP_UT_LOG)
test_smp_policy_SRCS := tests/unit/test_smp_policy.c hv/smp/policy.c
UNIT_TESTS += test_trampoline
test_trampoline_SRCS := tests/unit/test_trampoline.c arch/trampoline_copy.c \
	$(B)/arch/trampoline.o
