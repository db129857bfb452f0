/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/cpu_inline.h - CLI and STI as inline instructions, for the one path
 * that runs them on every #VMEXIT (the run loop, hv/svm/vcpu_run.c);
 * everything else calls arch/cpu.h's irq_disable()/irq_enable(), the same
 * instructions out of line. The unit build puts tests/doubles/inline/
 * first on the quote include path, so its arch/cpu_inline.h, which calls
 * the CPU double's irq_disable()/irq_enable(), stands in for this one (as
 * tests/doubles/svm_insn.inc does for arch/svm_insn.inc). */
#ifndef MINHV_ARCH_CPU_INLINE_H
#define MINHV_ARCH_CPU_INLINE_H

static inline void irq_disable_inline(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline void irq_enable_inline(void)
{
	__asm__ volatile("sti" ::: "memory");
}

#endif
