// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_report.c - abuse of HC_REPORT: a flood of results
 * beyond the plan (then a failing exit), terminal control characters in a
 * diagnostic, and a result named like one of minhv's own checks. minhv
 * must flag the flood, filter the text and turn the forgery into a FAIL. */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "lib/string.h"

#define FLOOD_REPORTS 600

static void report_flood_body(void)
{
	static const char name[] = "report_flood.ok";
	unsigned int taken = 0;

	printf("hostile_report_flood: %u OK results with a plan of 1, then HC_EXIT(1); minhv must flag the results and fail the run\n",
	       FLOOD_REPORTS);
	for (unsigned int i = 0; i < FLOOD_REPORTS; i++)
		taken += hc_report(name, HC_RESULT_OK, "", 0) == 0;
	printf("hostile_report_flood: %u of %u calls returned 0\n", taken,
	       FLOOD_REPORTS);
	hc_exit(1);
}

/* ESC sequences (clear screen, colour, cursor), BEL, BS, DEL and the 8-bit
 * CSI: none may reach the console raw. */
static const char ctrl[] = "esc\x1b[2J\x1b[31mred bel\a bs\b del\x7f csi\x9b"
			   "1m osc\x1b]0;title\a reset\x1b"
			   "c end";

static void ctrl_chars_body(void)
{
	long r = hc_console_write(ctrl, sizeof(ctrl) - 1);

	printf("\n");
	if (r != (long)sizeof(ctrl) - 1)
		printf("hostile_ctrl_chars: HC_CONSOLE_WRITE returned %ld\n",
		       r);
	/* No check at all: the result is a SKIP whose diagnostic (printed
	 * live and in the KTAP block) carries the control characters. */
	report_skip("%s", ctrl);
}

static void forge_body(void)
{
	static const char name[] = "svm.pool_restored";

	printf("hostile_forge: reporting OK as '%s'; minhv must make it guest.%s, a FAIL\n",
	       name, name);
	report(hc_report(name, HC_RESULT_OK, "", 0) == 0,
	       "HC_REPORT of a hypervisor name returned an error");
}

const struct scenario scn_hostile_report_flood = {
	"hostile_report_flood", "hostile", NULL, report_flood_body, SCN_MANUAL
};
const struct scenario scn_hostile_ctrl_chars = { "hostile_ctrl_chars",
						 "hostile", NULL,
						 ctrl_chars_body, SCN_MANUAL };
const struct scenario scn_hostile_forge = { "hostile_forge", "hostile", NULL,
					    forge_body, SCN_MANUAL };
