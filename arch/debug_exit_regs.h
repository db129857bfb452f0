/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/debug_exit_regs.h - QEMU's isa-debug-exit device at iobase 0xf4,
 * iosize 4 (the kvm-unit-tests convention): a write of v makes QEMU exit
 * with status (v << 1) | 1. Shared by hv/stop.c, which ends a run with
 * it, and the device a guest sees (hv/platform/debug_exit.c). */
#ifndef MINHV_ARCH_DEBUG_EXIT_REGS_H
#define MINHV_ARCH_DEBUG_EXIT_REGS_H

#define QEMU_DEBUG_EXIT_PORT 0xf4
#define QEMU_DEBUG_EXIT_SIZE 4

#endif
