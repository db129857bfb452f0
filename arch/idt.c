// SPDX-License-Identifier: GPL-2.0-only
/* arch/idt.c - the IDT shared by all CPUs: every vector enters its stub in
 * arch/isr.asm, which calls trap_dispatch() (arch/idt.h; the C side lives
 * above arch). NMI, #DF and #MC run on IST stacks so they work even on a
 * broken stack (SDM vol 3 6.14.5). */
#include "arch/idt.h"
#include "arch/gdt.h"

struct idt_gate {
	u16 off_lo;
	u16 sel;
	u8 ist;
	u8 type; /* P | DPL0 | 64-bit interrupt gate (0xE) */
	u16 off_mid;
	u32 off_hi;
	u32 rsvd;
} __attribute__((packed));
_Static_assert(sizeof(struct idt_gate) == 16, "64-bit IDT gate is 16 bytes");

extern const u32 isr_offsets[256];
extern char isr_stub0[];

static struct idt_gate idt[256] __attribute__((aligned(16)));

void idt_init(void)
{
	for (unsigned v = 0; v < 256; v++) {
		u64 a = (u64)(uintptr_t)isr_stub0 + isr_offsets[v];

		idt[v] = (struct idt_gate){
			.off_lo = (u16)a,
			.sel = SEL_CODE64,
			.ist = v == VEC_NMI ? IST_NMI :
			       v == VEC_DF  ? IST_DF :
			       v == VEC_MC  ? IST_MC :
					      0,
			.type = 0x8e,
			.off_mid = (u16)(a >> 16),
			.off_hi = (u32)(a >> 32),
		};
	}
}

void idt_load(void)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed))
	idtr = { sizeof(idt) - 1, (u64)(uintptr_t)idt };

	__asm__ volatile("lidt %0" : : "m"(idtr));
}
