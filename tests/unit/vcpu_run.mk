# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/vcpu_run.mk - the run loop, guest creation and teardown, the
# default run and the vLAPIC's entry path (its offers; its timer) over the
# world-switch double (tests/doubles/fake_vmrun.c in place of arch/svm.asm).
UNIT_TESTS += test_vcpu_run test_guest_run test_vlapic_entry \
	test_vlapic_entry_timer
test_vcpu_run_MODS := $(RUN_UT_MODS)
test_guest_run_MODS := $(RUN_UT_MODS)
test_vlapic_entry_MODS := $(RUN_UT_MODS) vlapic_entry_fixture
test_vlapic_entry_timer_MODS := $(RUN_UT_MODS) vlapic_entry_fixture
