/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/gdt.h - per-CPU GDT and TSS with IST stacks for NMI, #DF and #MC. */
#ifndef MINHV_ARCH_GDT_H
#define MINHV_ARCH_GDT_H

#include "arch/types.h"

#define SEL_CODE64 0x08
#define SEL_DATA 0x10
#define SEL_TSS 0x18

#define IST_NMI 1
#define IST_DF 2
#define IST_MC 3

#define GDT_NR_IST 3 /* IST_NMI, IST_DF, IST_MC: ist_top[IST_x - 1] */

/* Builds this CPU's GDT and TSS in page (one zeroed 4 KiB page the caller
 * owns for as long as the CPU runs), with the IST stacks' tops from
 * ist_top, loads them, reloads the segment registers and TR. Call on the
 * CPU itself. Returns the TSS (inside page). */
void *gdt_init_cpu(void *page, const u64 ist_top[GDT_NR_IST]);

#endif
