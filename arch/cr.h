/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/cr.h - control-register bits the host sets itself (AMD APM vol 2
 * 3.1.3; Intel SDM vol 3A 2.5). arch/trampoline.asm repeats the ones it
 * needs as NASM defines. */
#ifndef MINHV_ARCH_CR_H
#define MINHV_ARCH_CR_H

#include "arch/types.h"

#define CR4_PAE BIT(5)
#define CR4_MCE BIT(6) /* clear: a machine check is a shutdown */
#define CR4_LA57 BIT(12) /* 5-level paging (only changed with paging off) */

#endif
