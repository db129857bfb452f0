# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/wait.mk - what a vCPU's waits in the host share with the run
# loop (hv/guest/wait.c): the run-time limit, a guest stuck for good.
UNIT_TESTS += test_wait
test_wait_MODS = $(test_exits_MODS)
