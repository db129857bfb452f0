# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/host_uart.mk - minhv's own console UART (arch/uart.c) behind a
# scripted LSR (tests/doubles/fake_cpu.c's inb hook).
UNIT_TESTS += test_host_uart
test_host_uart_MODS := host_uart fake_cpu
