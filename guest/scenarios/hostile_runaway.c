// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_runaway.c - guests that never end but exit all
 * the time, so the no-progress watchdog counts them as alive: a CPUID
 * loop, a #GP loop (unknown MSR, #GP injected by minhv and caught here)
 * and endless console output. minhv's per-guest run-time limit must stop
 * each one, and for the flood its console rate limit must drop and count
 * the excess. */
#include "guest/console.h"
#include "guest/except.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/x86.h"

#define UNKNOWN_MSR 0x40001234u

static void cpuid_loop_body(void)
{
	printf("hostile_cpuid_loop: CPUID forever; the run-time limit should stop this guest\n");
	for (;;)
		(void)cpuid(0, 0);
}

static void rdmsr_unknown(void *unused)
{
	(void)unused;
	(void)rdmsr(UNKNOWN_MSR);
}

static void gp_loop_body(void)
{
	printf("hostile_gp_loop: #GP forever (RDMSR %#x); the run-time limit should stop this guest\n",
	       UNKNOWN_MSR);
	for (;;)
		(void)catch_exception(rdmsr_unknown, NULL, NULL);
}

static void console_flood_body(void)
{
	static const char line[] =
		"hostile_console_flood: 0123456789abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789abcdefghijklmnopqrstuv\n";

	for (;;)
		(void)hc_console_write(line, sizeof(line) - 1);
}

const struct scenario scn_hostile_cpuid_loop = { "hostile_cpuid_loop",
						 "hostile", NULL,
						 cpuid_loop_body, SCN_MANUAL };
const struct scenario scn_hostile_gp_loop = { "hostile_gp_loop", "hostile",
					      NULL, gp_loop_body, SCN_MANUAL };
const struct scenario scn_hostile_console_flood = {
	"hostile_console_flood", "hostile", NULL, console_flood_body, SCN_MANUAL
};
