/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/cpu_inline.h - CLI, STI and RDTSC as inline instructions, for the
 * paths that run them on every #VMEXIT (the run loop, hv/svm/vcpu_run.c;
 * the console's fast path, hv/platform/uart_fast.c); everything else
 * calls arch/cpu.h's irq_disable()/irq_enable()/rdtsc(), the same
 * instructions out of line. The unit build puts tests/doubles/inline/
 * first on the quote include path, so its arch/cpu_inline.h, which calls
 * the CPU double's irq_disable()/irq_enable()/rdtsc(), stands in for
 * this one (as tests/doubles/svm_insn.inc does for arch/svm_insn.inc). */
#ifndef MINHV_ARCH_CPU_INLINE_H
#define MINHV_ARCH_CPU_INLINE_H

#include "arch/types.h"

static inline void irq_disable_inline(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline void irq_enable_inline(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline u64 rdtsc_inline(void)
{
	return __builtin_ia32_rdtsc();
}

#endif
