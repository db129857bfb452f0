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

struct percpu;
/* Allocates and loads this CPU's GDT and TSS (IST stacks from pc->ist_top),
 * reloads segment registers, loads TR. Call on the CPU itself. */
void gdt_init_cpu(struct percpu *pc);

#endif
