// SPDX-License-Identifier: GPL-2.0-only
/* hv/stop.c - ending a run: isa-debug-exit under QEMU, else halt or reset.
 * Other CPUs are stopped first through the hook SMP installs. */
#include "hv/stop.h"
#include "arch/cpu.h"
#include "arch/debug_exit_regs.h"
#include "hv/console.h"
#include "lib/fmt.h"

static enum exit_method method = EXIT_HALT;
void (*g_stop_others)(void);

void stop_configure(enum exit_method m, bool under_qemu)
{
	if (m == EXIT_AUTO)
		m = under_qemu ? EXIT_QEMU : EXIT_HALT;
	method = m;
}

static void say(const char *s)
{
	char buf[96];
	int n = fmt_snprintf(buf, sizeof(buf), "minhv: %s\n", s);

	console_write(buf, (size_t)n);
}

_Noreturn void hv_stop(enum stop_status s)
{
	static volatile u32 stopping;

	irq_disable();
	/* Only the first CPU to get here ends the run; others just die. */
	if (__atomic_exchange_n(&stopping, 1, __ATOMIC_ACQ_REL))
		cpu_dead();
	if (g_stop_others)
		g_stop_others();
	switch (method) {
	case EXIT_QEMU:
		say(s == STOP_PASS ? "exit: pass" : "exit: fail");
		outl(QEMU_DEBUG_EXIT_PORT, (u32)s);
		break;
	case EXIT_RESET:
		say("exit: reset");
		outb(0xcf9, 0x02); /* PCI reset control: system reset */
		outb(0xcf9, 0x06);
		outb(0x64, 0xfe); /* 8042 pulse reset as a fallback */
		break;
	default:
		break;
	}
	say(s == STOP_PASS ? "halted (pass)" : "halted (fail)");
	cpu_dead();
}
