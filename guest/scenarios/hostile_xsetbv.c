// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_xsetbv.c - XSETBV exits to minhv (XCR0 is not
 * switched by VMRUN, so the guest's value must be known and checked) and a
 * bad value raises #GP in the guest, which carries on (SDM vol 2 XSETBV:
 * ECX must be 0, bit 0 set, only supported bits, AVX needs SSE). */
#include "guest/except.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/scenarios/xstate_util.h"

struct xs_try {
	u32 xcr;
	u64 val;
};

static void try_xsetbv(void *arg)
{
	const struct xs_try *t = arg;

	xs_xsetbv(t->xcr, t->val);
}

static unsigned long long other_exits(void)
{
	struct hc_counters c;

	return hc_get_counters(&c, sizeof(c)) == sizeof(c) ? c.other : ~0ULL;
}

static const char *xsetbv_supported(void)
{
	return xs_has_xsave() ? NULL : "no XSAVE in CPUID.1:ECX[26]";
}

static void one(u32 xcr, u64 val, int want, const char *what)
{
	struct xs_try t = { xcr, val };
	unsigned long long before = other_exits();
	int vec = catch_exception(try_xsetbv, &t, NULL);
	unsigned long long n = other_exits() - before;

	report(vec == want && n == 1, "XSETBV %u, %#llx (%s): %s, %llu exits",
	       xcr, (unsigned long long)val, what,
	       vec == NO_EXCEPTION ? "ok" : exception_name((unsigned)vec), n);
}

static void xsetbv_body(void)
{
	xs_enable();
	one(1, XCR0_X87, GP_VECTOR, "ECX not 0");
	one(0, XCR0_SSE, GP_VECTOR, "x87 bit clear");
	one(0, XCR0_X87 | (1ull << 63), GP_VECTOR, "reserved bit 63");
	one(0, XCR0_X87 | XCR0_SSE | (1ull << 8), GP_VECTOR,
	    "bit 8 (supervisor PT)");
	if (xs_has_avx()) {
		one(0, XCR0_X87 | XCR0_AVX, GP_VECTOR, "AVX without SSE");
		one(0, XCR0_X87 | XCR0_SSE | XCR0_AVX | (1ull << 5), GP_VECTOR,
		    "opmask without ZMM");
		one(0, XCR0_X87 | XCR0_SSE | XCR0_AVX, NO_EXCEPTION, "AVX");
	}
	one(0, XCR0_X87 | XCR0_SSE, NO_EXCEPTION, "SSE");
	report(xs_xgetbv(0) == (XCR0_X87 | XCR0_SSE), "XCR0 %#llx after",
	       (unsigned long long)xs_xgetbv(0));
}

const struct scenario scn_hostile_xsetbv_bad = { "hostile_xsetbv_bad",
						 "hostile", xsetbv_supported,
						 xsetbv_body, SCN_MANUAL };
