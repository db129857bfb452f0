// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_invd.c - INVD, WBINVD (and WBNOINVD where CPUID
 * has it) must each exit to minhv: natively, a guest INVD would discard the
 * host's dirty cache lines. Counted with minhv's exit counters ("other"). */
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/x86.h"

#define WBNOINVD_BIT (1u << 9) /* CPUID 0x80000008:EBX */

static unsigned long long other_exits(void)
{
	struct hc_counters c;

	return hc_get_counters(&c, sizeof(c)) == sizeof(c) ? c.other : ~0ULL;
}

static void invd_body(void)
{
	unsigned long long before, after;
	bool wbnoinvd = cpuid(0x80000000, 0).eax >= 0x80000008 &&
			(cpuid(0x80000008, 0).ebx & WBNOINVD_BIT);

	before = other_exits();
	__asm__ volatile("invd" ::: "memory");
	after = other_exits();
	report(after - before == 1, "INVD: %llu exits", after - before);
	before = other_exits();
	__asm__ volatile("wbinvd" ::: "memory");
	after = other_exits();
	report(after - before == 1, "WBINVD: %llu exits", after - before);
	if (!wbnoinvd) {
		report_info("WBNOINVD not in CPUID 0x80000008:EBX[9]: not run");
		return;
	}
	before = other_exits();
	__asm__ volatile(".byte 0xf3, 0x0f, 0x09" ::: "memory"); /* WBNOINVD */
	after = other_exits();
	report(after - before == 1, "WBNOINVD: %llu exits", after - before);
}

const struct scenario scn_hostile_invd = { "hostile_invd", "hostile", NULL,
					   invd_body, SCN_MANUAL };
