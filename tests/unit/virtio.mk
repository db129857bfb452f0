# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/virtio.mk - the virtio disk (hv/platform/virtio_*.c, virtq.c):
# registers, requests and hostile queues on a fake guest memory; the test
# stands in for the platform's interrupt line.
UNIT_TESTS += test_virtio
test_virtio_MODS := virtio log fmt fake_cpu fake_console
