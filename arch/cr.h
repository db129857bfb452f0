/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/cr.h - control register bits: CR0, CR3, CR4, RFLAGS and DR6 (AMD APM
 * vol 2 3.1-3.1.7, 13.1.1; Intel SDM vol 3A 2.5). Only constants, shared
 * by the host code that sets these registers and the emulation that
 * checks a guest's. EFER's bits are with MSR_EFER in arch/msr.h, XCR0's
 * in arch/xcr0.h. */
#ifndef MINHV_ARCH_CR_H
#define MINHV_ARCH_CR_H

#include "arch/types.h"

#define CR0_PE BIT(0) /* protection enable */
#define CR0_MP BIT(1) /* monitor coprocessor */
#define CR0_ET BIT(4) /* extension type (reads 1) */
#define CR0_NE BIT(5) /* numeric error */
#define CR0_WP BIT(16) /* write protect */
#define CR0_NW BIT(29) /* not write-through */
#define CR0_CD BIT(30) /* cache disable */
#define CR0_PG BIT(31) /* paging */

/* CR3 (APM vol 2 3.1.2, 5.3): where the top table is. Bits 31:12 in
 * 32-bit paging, the 32-byte aligned PDPT in bits 31:5 under PAE, bits
 * 51:12 in long mode. */
#define CR3_ADDR32_MASK 0xfffff000ULL
#define CR3_PAE_MASK 0xffffffe0ULL
#define CR3_ADDR_MASK 0x000ffffffffff000ULL

#define CR4_PSE BIT(4) /* 4 MiB pages in 32-bit paging */
#define CR4_PAE BIT(5)
#define CR4_MCE BIT(6) /* clear: a machine check is a shutdown */
#define CR4_PGE BIT(7) /* global pages */
#define CR4_OSFXSR BIT(9)
#define CR4_OSXMMEXCPT BIT(10)
#define CR4_UMIP BIT(11) /* user-mode instruction prevention */
#define CR4_LA57 BIT(12) /* 5-level paging (changed only with paging off) */
#define CR4_FSGSBASE BIT(16)
#define CR4_PCIDE BIT(17)
#define CR4_OSXSAVE BIT(18)
#define CR4_SMEP BIT(20)
#define CR4_SMAP BIT(21)
#define CR4_PKE BIT(22) /* user protection keys */
#define CR4_CET BIT(23)
#define CR4_PKS BIT(24) /* supervisor protection keys (SDM vol 3A 4.6.2) */

/* RFLAGS (SDM vol 1 3.4.3, APM vol 2 3.1.6). */
#define RFLAGS_FIXED BIT(1) /* reserved, reads as 1: RFLAGS after reset */
#define RFLAGS_TF BIT(8) /* trap (single step) */
#define RFLAGS_IF BIT(9) /* interrupts enabled */
#define RFLAGS_DF BIT(10) /* direction: string instructions count down */
#define RFLAGS_RF BIT(16) /* resume: no instruction breakpoint for one insn */
#define RFLAGS_VM BIT(17) /* virtual-8086 mode */

/* DR6 (SDM vol 3B 18.2.3, APM vol 2 13.1.1.3): B0-B3 (the breakpoint
 * hits), BD (a MOV DR under DR7.GD), BS (single step), and the bits that
 * read 1. */
#define DR6_TRAP_BITS 0xfULL
#define DR6_BD BIT(13)
#define DR6_BS BIT(14)
#define DR6_ACTIVE_LOW 0xffff0ff0ULL /* also DR6 after reset */
/* DR7 (SDM vol 3B 18.2.4): bit 10 reads as 1, the value after reset;
 * GD (general detect): #DB before any MOV DR, cleared by the processor
 * when it enters the #DB handler. */
#define DR7_FIXED BIT(10)
#define DR7_GD BIT(13)

#endif
