// SPDX-License-Identifier: GPL-2.0-only
/* arch/gdt.c - per-CPU GDT (null, 64-bit code, data, TSS) and TSS with the
 * IST stacks for NMI, #DF and #MC (SDM vol 3 7.7, AMD APM vol 2 12.2.5). */
#include "arch/gdt.h"

struct tss64 {
	u32 rsvd0;
	u64 rsp[3];
	u64 rsvd1;
	u64 ist[7];
	u64 rsvd2;
	u16 rsvd3;
	u16 iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss64) == 104, "TSS is 104 bytes");
_Static_assert(__builtin_offsetof(struct tss64, ist) == 0x24, "IST1 at 0x24");

struct cpu_tables {
	u64 gdt[5]; /* null, code64, data, tss (two slots) */
	struct tss64 tss;
};
_Static_assert(sizeof(struct cpu_tables) <= PAGE_SIZE,
	       "a CPU's GDT and TSS fit the page its caller gives");

struct desc_ptr {
	u16 limit;
	u64 base;
} __attribute__((packed));

void *gdt_init_cpu(void *page, const u64 ist_top[GDT_NR_IST])
{
	struct cpu_tables *t = page;
	u64 tss = (u64)(uintptr_t)&t->tss;
	struct desc_ptr gdtr;

	t->gdt[0] = 0;
	t->gdt[1] = 0x00af9a000000ffffULL; /* code: P, DPL0, L=1 */
	t->gdt[2] = 0x00cf92000000ffffULL; /* data: P, writable */
	/* 64-bit available TSS (type 9), 16-byte descriptor. */
	t->gdt[3] = (sizeof(t->tss) - 1) | ((tss & 0xffffff) << 16) |
		    (0x89ULL << 40) | (((tss >> 24) & 0xff) << 56);
	t->gdt[4] = tss >> 32;
	t->tss.ist[IST_NMI - 1] = ist_top[IST_NMI - 1];
	t->tss.ist[IST_DF - 1] = ist_top[IST_DF - 1];
	t->tss.ist[IST_MC - 1] = ist_top[IST_MC - 1];
	t->tss.iomap_base = sizeof(t->tss); /* no I/O bitmap */

	gdtr.limit = sizeof(t->gdt) - 1;
	gdtr.base = (u64)(uintptr_t)t->gdt;
	__asm__ volatile("lgdt %0\n\t"
			 "mov %1, %%ds\n\t"
			 "mov %1, %%es\n\t"
			 "mov %1, %%ss\n\t"
			 "xor %%eax, %%eax\n\t"
			 "mov %%eax, %%fs\n\t"
			 /* reload CS with a far return */
			 "pushq %2\n\t"
			 "lea 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "ltr %w3"
			 :
			 : "m"(gdtr), "r"((u64)SEL_DATA), "i"(SEL_CODE64),
			   "r"((u16)SEL_TSS)
			 : "rax", "memory");
	return &t->tss;
}
