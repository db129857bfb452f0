// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_rep_outsb.c - one REP OUTSB of 4 MiB to COM1 with
 * a 32-bit address size (67 prefix in 64-bit mode) and junk in the upper
 * halves of RSI and RCX. minhv must use ESI/ECX only (APM vol 3, OUTS:
 * the address size picks the registers), update them as the CPU would
 * (32-bit writes zero-extend), split the work over many exits instead of
 * holding one exit for seconds, and keep the console bounded. */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "lib/string.h"

#define COM1_DATA 0x3f8
#define OUTS_BYTES (4u << 20)
#define OUTS_BUF 0x800000ULL /* 8 MiB: free guest memory, identity-mapped */
#define JUNK 0xdead000000000000ULL /* ignored with a 32-bit address size */
#define CHUNK_MAX 4096 /* the most minhv may move in one exit */

static unsigned long long ioio_exits(void)
{
	struct hc_counters c;

	return hc_get_counters(&c, sizeof(c)) == sizeof(c) ? c.ioio : 0;
}

static void rep_outsb_body(void)
{
	u64 rsi = JUNK | OUTS_BUF, rcx = JUNK | OUTS_BYTES;
	unsigned long long before, exits;

	if (boot_info->mem_size < OUTS_BUF + OUTS_BYTES + SZ_2M) {
		report_skip("needs %llu MiB of guest memory",
			    (OUTS_BUF + OUTS_BYTES + SZ_2M) >> 20);
		return;
	}
	memset((void *)(uintptr_t)OUTS_BUF, 'R', OUTS_BYTES);
	printf("hostile_rep_outsb: addr32 REP OUTSB of %u bytes to COM1, RSI %#llx RCX %#llx\n",
	       OUTS_BYTES, (unsigned long long)rsi, (unsigned long long)rcx);
	before = ioio_exits();
	__asm__ volatile(".byte 0x67; rep outsb"
			 : "+S"(rsi), "+c"(rcx)
			 : "d"((u16)COM1_DATA)
			 : "memory");
	exits = ioio_exits() - before;
	printf("\n");
	report(rcx == 0,
	       "RCX after: %#llx, want 0 (ECX counted down, zero-extended)",
	       (unsigned long long)rcx);
	report(rsi == OUTS_BUF + OUTS_BYTES, "RSI after: %#llx, want %#llx",
	       (unsigned long long)rsi,
	       (unsigned long long)(OUTS_BUF + OUTS_BYTES));
	report(exits >= OUTS_BYTES / CHUNK_MAX,
	       "%llu IOIO exits for %u bytes: want >= %u (at most %u bytes per exit)",
	       exits, OUTS_BYTES, OUTS_BYTES / CHUNK_MAX, CHUNK_MAX);
	report_info("%llu IOIO exits", exits);
}

const struct scenario scn_hostile_rep_outsb = { "hostile_rep_outsb", "hostile",
						NULL, rep_outsb_body,
						SCN_MANUAL };
