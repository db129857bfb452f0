/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/inline/arch/cpu_inline.h - the unit build's
 * arch/cpu_inline.h (found first: UT_CFLAGS's -iquote tests/doubles/inline):
 * CLI and STI through the CPU double (tests/doubles/fake_cpu.c), which
 * keeps IF per fake CPU and traces both, and RDTSC from its fake clock,
 * so the run loop's code runs unchanged in a unit test. */
#ifndef MINHV_TESTS_DOUBLES_INLINE_ARCH_CPU_INLINE_H
#define MINHV_TESTS_DOUBLES_INLINE_ARCH_CPU_INLINE_H

#include "arch/cpu.h"

static inline void irq_disable_inline(void)
{
	irq_disable();
}

static inline void irq_enable_inline(void)
{
	irq_enable();
}

static inline u64 rdtsc_inline(void)
{
	return rdtsc();
}

#endif
