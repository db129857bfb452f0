# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/devices.mk - the guest platform's reset and power paths, the
# verdict on a foreign guest's end, the 8042 and pc-testdev.
UNIT_TESTS += test_devices
test_devices_MODS = $(test_exits_MODS) run_verdict
