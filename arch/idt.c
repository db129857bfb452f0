/* arch/idt.c - the IDT shared by all CPUs and the trap dispatcher.
 * NMI, #DF and #MC run on IST stacks so they work even on a broken stack
 * (SDM vol 3 6.14.5). */
#include "arch/idt.h"
#include "arch/gdt.h"
#include "hv/log.h"
#include "hv/park/park.h"

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
extern char rdmsr_safe_insn[], rdmsr_safe_fixup[];

static struct idt_gate idt[256] __attribute__((aligned(16)));
static trap_handler_t handlers[256];

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

void idt_register(u8 vector, trap_handler_t h)
{
	handlers[vector] = h;
}

static const char *const exc_names[32] = {
	"#DE divide error",
	"#DB debug",
	"NMI",
	"#BP breakpoint",
	"#OF overflow",
	"#BR bound",
	"#UD invalid opcode",
	"#NM no FPU",
	"#DF double fault",
	"coprocessor overrun",
	"#TS invalid TSS",
	"#NP segment not present",
	"#SS stack fault",
	"#GP general protection",
	"#PF page fault",
	"reserved 15",
	"#MF x87 error",
	"#AC alignment check",
	"#MC machine check",
	"#XM SIMD error",
	"#VE virtualization",
	"#CP control protection",
	"reserved 22",
	"reserved 23",
	"reserved 24",
	"reserved 25",
	"reserved 26",
	"reserved 27",
	"#HV injection",
	"#VC VMM communication",
	"#SX security",
	"reserved 31",
};

void trap_dispatch(struct trap_frame *f)
{
	u64 v = f->vector;

	/* A parked CPU may run with IBRS cleared: restore SPEC_CTRL before
	 * the indirect call below (hv/park/park.c, docs/PARKING.md). */
	park_irq_enter();
	if (handlers[v]) {
		handlers[v](f);
		return;
	}
	if (v == 13 && f->rip == (u64)(uintptr_t)rdmsr_safe_insn) {
		f->rip = (u64)(uintptr_t)rdmsr_safe_fixup;
		return;
	}
	if (v < 32)
		trap_fatal(f, exc_names[v]);
	pr_warn("trap: unexpected interrupt vector %#llx\n",
		(unsigned long long)v);
}
