# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/uart.mk - the guest's 16550A: the pure model, and its port I/O
# on the exit-handler fixture (console lines, IRQ 4, polled input).
UNIT_TESTS += test_uart
test_uart_MODS = $(test_exits_MODS)
