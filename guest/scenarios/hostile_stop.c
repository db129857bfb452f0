// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_stop.c - guests that never come back: a triple
 * fault (SHUTDOWN exit) and an endless loop with interrupts off (the host
 * timer and watchdog must take the CPU back). minhv stops each guest. */
#include "guest/console.h"
#include "guest/scenarios/scenarios.h"

static void triple_fault_body(void)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed)) none = { 0, 0 };

	printf("hostile_triple_fault: empty IDT, then #UD; minhv should stop this guest\n");
	__asm__ volatile("lidt %0; ud2" ::"m"(none));
	report(false, "survived a triple fault");
}

static void cli_loop_body(void)
{
	printf("hostile_cli_loop: spinning with interrupts off; the watchdog should stop this guest\n");
	__asm__ volatile("cli; 1: jmp 1b");
	report(false, "left an endless loop");
}

const struct scenario scn_hostile_triple_fault = {
	"hostile_triple_fault", "hostile", NULL, triple_fault_body, SCN_MANUAL
};
const struct scenario scn_hostile_cli_loop = { "hostile_cli_loop", "hostile",
					       NULL, cli_loop_body,
					       SCN_MANUAL };
