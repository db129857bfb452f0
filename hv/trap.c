// SPDX-License-Identifier: GPL-2.0-only
/* hv/trap.c - traps in C: trap_dispatch(), which arch/isr.asm calls for
 * every vector (registered handlers, the rdmsr_safe() fixup, an NMI or #MC
 * right before a safe halt's HLT, an EOI for an unexpected interrupt), and the
 * fatal-trap report: CPU, vector, error code, registers and a frame-pointer
 * stack trace, then the run stops with the fail status. */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/idt.h"
#include "hv/console.h"
#include "hv/log.h"
#include "lib/fmt.h"
#include "hv/percpu.h"
#include "hv/stop.h"
#include "hv/trap.h"

extern char ImageBase[];
extern char rdmsr_safe_insn[], rdmsr_safe_fixup[];
extern char cpu_safe_halt_insn[], cpu_safe_halt_done[];
extern char cpu_safe_mwait_insn[], cpu_safe_mwait_done[];

static trap_handler_t handlers[256];

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

/* A vector nothing registered (an I/O APIC pin left routed, a stray
 * MSI): end it with an EOI when it is in service, or its ISR bit would
 * block every vector of its priority class and below, VEC_TIMER and
 * VEC_IPI_CALL included (SDM 11.8.4, 11.8.5). The first few are logged
 * (from any context: ras_emit()), all counted. */
static void unexpected_irq(u8 v)
{
	static u32 count;
	u32 n = __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
	bool isr = apic_isr_set(v);

	if (isr)
		apic_eoi();
	if (n <= 8)
		ras_emit(
			LOG_WARN,
			"trap: unexpected interrupt vector %#x (%u so far)%s\n",
			v, n, isr ? ", EOI sent" : "");
}

/* An NMI or #MC taken between cpu_safe_halt()'s STI and its HLT (STI's
 * shadow need not hold them off, SDM vol 2B STI) returns to the HLT with the
 * shadow gone: the interrupt a waiter armed before its STI (a host timer
 * that already expired, a kick) is taken first and the HLT then sleeps
 * with nothing left to wake it, a lost wake-up of a parked CPU. Resume
 * after the HLT (or MWAIT) instead: the waiter's loop looks again. */
static void past_safe_halt(struct trap_frame *f)
{
	if (f->rip == (u64)(uintptr_t)cpu_safe_halt_insn)
		f->rip = (u64)(uintptr_t)cpu_safe_halt_done;
	else if (f->rip == (u64)(uintptr_t)cpu_safe_mwait_insn)
		f->rip = (u64)(uintptr_t)cpu_safe_mwait_done;
}

void trap_dispatch(struct trap_frame *f)
{
	u64 v = f->vector;

	/* A parked CPU may run with IBRS cleared: restore SPEC_CTRL before
	 * the indirect call below (hv/park/park.c, docs/PARKING.md). */
	park_irq_enter();
	if (__builtin_expect(v == VEC_NMI || v == VEC_MC, 0))
		past_safe_halt(f);
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
	unexpected_irq((u8)v);
}

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	console_write(buf, (size_t)n);
}

_Noreturn void trap_fatal(struct trap_frame *f, const char *why)
{
	struct percpu *pc = g_percpu ? this_cpu() : NULL;
	u64 base = (u64)(uintptr_t)ImageBase;
	u64 lo = pc ? pc->stack_top - STACK_PAGES * PAGE_SIZE : 0;
	u64 hi = pc ? pc->stack_top : 0;
	u64 *fp = (u64 *)(uintptr_t)f->rbp;

	irq_disable();
	console_break_lock();
	out("\n*** minhv: fatal trap on CPU %u (APIC ID %u): vector %llu (%s), error code %#llx\n",
	    pc ? pc->cpu : 0, pc ? pc->apic_id : 0,
	    (unsigned long long)f->vector, why,
	    (unsigned long long)f->error_code);
	out("RIP %016llx (minhv.efi+%#llx) CS %04llx RFLAGS %016llx\n",
	    (unsigned long long)f->rip, (unsigned long long)(f->rip - base),
	    (unsigned long long)f->cs, (unsigned long long)f->rflags);
	out("RSP %016llx SS %04llx CR2 %016llx CR3 %016llx\n",
	    (unsigned long long)f->rsp, (unsigned long long)f->ss,
	    (unsigned long long)read_cr2(), (unsigned long long)read_cr3());
	out("RAX %016llx RBX %016llx RCX %016llx RDX %016llx\n",
	    (unsigned long long)f->rax, (unsigned long long)f->rbx,
	    (unsigned long long)f->rcx, (unsigned long long)f->rdx);
	out("RSI %016llx RDI %016llx RBP %016llx R8  %016llx\n",
	    (unsigned long long)f->rsi, (unsigned long long)f->rdi,
	    (unsigned long long)f->rbp, (unsigned long long)f->r8);
	out("R9  %016llx R10 %016llx R11 %016llx R12 %016llx\n",
	    (unsigned long long)f->r9, (unsigned long long)f->r10,
	    (unsigned long long)f->r11, (unsigned long long)f->r12);
	out("R13 %016llx R14 %016llx R15 %016llx\n", (unsigned long long)f->r13,
	    (unsigned long long)f->r14, (unsigned long long)f->r15);
	out("stack trace (minhv.efi at %#llx):\n", (unsigned long long)base);
	out("  [<%016llx>] minhv.efi+%#llx\n", (unsigned long long)f->rip,
	    (unsigned long long)(f->rip - base));
	/* Walk saved frame pointers while they stay inside this CPU's stack. */
	for (int depth = 0; depth < 32 && fp; depth++) {
		u64 a = (u64)(uintptr_t)fp;

		if (!pc || a < lo || a + 16 > hi || (a & 7))
			break;
		if (!fp[1])
			break;
		out("  [<%016llx>] minhv.efi+%#llx\n",
		    (unsigned long long)fp[1],
		    (unsigned long long)(fp[1] - base));
		fp = (u64 *)(uintptr_t)fp[0];
	}
	hv_stop(STOP_FAIL);
}
