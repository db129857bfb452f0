// SPDX-License-Identifier: GPL-2.0-only
/* hv/ras/nmi.c - an NMI nobody in minhv sent: a BMC's "diagnostic
 * interrupt", a watchdog, or the chipset's SERR#/IOCHK lines. Counted and
 * logged, never fatal. Only the boot CPU reads the reason in port 61h (the
 * legacy NMI reaches it through LINT1), as Linux's default_do_nmi() and
 * unknown_nmi_error() do; a reported SERR# is cleared and left disabled,
 * an IOCHK cleared and re-armed. */
#include "hv/ras/internal.h"
#include "arch/cpu.h"
#include "arch/timers.h"
#include "hv/log.h"
#include "hv/percpu.h"

#define NMI_LOGGED 8 /* the first ones get a line each; the rest a count */

extern char ImageBase[];
u32 g_nmi_unknown;

static const char *reason_name(u8 r)
{
	if (r & PORT61_SERR)
		return r & PORT61_IOCHK ? "SERR#, IOCHK" : "SERR#";
	return r & PORT61_IOCHK ? "IOCHK" : "unknown source";
}

/* Port 61h bits 7:6 latch until cleared through bits 3:2 (bits 7:4 read
 * only; write them as 0). */
static void clear_reason(u8 r)
{
	u8 ctl = r & PORT61_WRITABLE;

	if (r & PORT61_SERR)
		ctl |= PORT61_CLEAR_SERR; /* cleared, and stays disabled */
	if (r & PORT61_IOCHK) {
		outb(PORT_61, (u8)(ctl | PORT61_CLEAR_IOCHK));
		/* ... then re-enabled: the next one is reported again. */
	}
	outb(PORT_61, ctl);
}

void ras_nmi_unknown(const struct trap_frame *f)
{
	struct percpu *pc = g_percpu ? this_cpu() : NULL;
	u32 cpu = pc ? pc->cpu : 0;
	u32 n = __atomic_add_fetch(&g_nmi_unknown, 1, __ATOMIC_RELAXED);
	u64 base = (u64)(uintptr_t)ImageBase;
	u8 reason = 0;

	if (cpu == 0) {
		reason = inb(PORT_61);
		if (reason & (PORT61_SERR | PORT61_IOCHK))
			clear_reason(reason);
	}
	if (n <= NMI_LOGGED)
		ras_emit(
			LOG_WARN,
			"nmi: unexpected NMI %u on CPU %u at minhv.efi+%#llx, port 61h %#x (%s): counted, not fatal\n",
			n, cpu, (unsigned long long)(f->rip - base), reason,
			cpu ? "not read off CPU 0" : reason_name(reason));
	else if (n == NMI_LOGGED + 1)
		ras_emit(LOG_WARN, "nmi: further ones only counted\n");
}

void ras_nmi_unknown_trap(struct trap_frame *f)
{
	ras_nmi_unknown(f);
}
