# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/vcpu_spec.mk - the guest SPEC_CTRL around VMRUN (write order).
UNIT_TESTS += test_vcpu_spec
test_vcpu_spec_MODS := vcpu_spec spec_ctrl park_fakes features log fmt \
	fake_cpu fake_console
