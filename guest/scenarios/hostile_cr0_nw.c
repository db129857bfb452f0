// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_cr0_nw.c - CR0.NW set with CR0.CD clear, an
 * illegal combination (APM vol 2, 15.5.1: a VMRUN consistency check).
 * CR0 writes are not intercepted: the CPU either raises #GP in the guest
 * (then the guest survives and says so) or the next VMRUN fails, and
 * minhv must stop the guest naming CR0.NW. */
#include "guest/console.h"
#include "guest/except.h"
#include "guest/scenarios/scenarios.h"
#include "guest/x86.h"

#define CR0_NW (1ULL << 29)
#define CR0_CD (1ULL << 30)

static inline void write_cr0(u64 v)
{
	__asm__ volatile("mov %0, %%cr0" ::"r"(v) : "memory");
}

static void set_nw(void *unused)
{
	(void)unused;
	write_cr0((read_cr0() & ~CR0_CD) | CR0_NW);
	/* Any exit now runs into the next VMRUN's check. */
	(void)cpuid(0, 0);
}

static void cr0_nw_body(void)
{
	int vec;

	printf("hostile_cr0_nw: CR0.NW=1 with CR0.CD=0; a #GP here or minhv stops this guest naming CR0.NW\n");
	vec = catch_exception(set_nw, NULL, NULL);
	report(vec == GP_VECTOR, "CR0.NW without CD: %s, want #GP or a stop",
	       vec == NO_EXCEPTION ? "took effect" :
				     exception_name((unsigned)vec));
}

const struct scenario scn_hostile_cr0_nw = { "hostile_cr0_nw", "hostile", NULL,
					     cr0_nw_body, SCN_MANUAL };
