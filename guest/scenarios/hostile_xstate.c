// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_xstate.c - state must not cross from one guest to
 * the next on the same CPU: hostile_xstate_dirty leaves markers in XMM/YMM,
 * XCR0 and DR0-DR3 (DR6/DR7 too) and exits; the next guests (the suite runs
 * them in this order on CPU 0) must find the reset values instead (SDM vol 3
 * 10.1.1 / 18.2 reset state: XCR0 1, MXCSR 0x1F80, DR0-3 0, DR6 0xFFFF0FF0,
 * DR7 0x400). */
#include "guest/scenarios/scenarios.h"
#include "guest/scenarios/xstate_util.h"

#define DR_MARK 0x00000000dead0000ull

static u8 regs[16 * 32] __attribute__((aligned(32)));

static void dirty_body(void)
{
	bool ymm = xs_has_avx();

	xs_enable();
	if (ymm)
		xs_xsetbv(0, XCR0_X87 | XCR0_SSE | XCR0_AVX);
	for (unsigned i = 0; i < sizeof(regs); i++)
		regs[i] = (u8)(0xa5 ^ i) | 1; /* never 0 */
	xs_load(regs, ymm);
	xs_write_dr0(DR_MARK);
	xs_write_dr1(DR_MARK + 0x100);
	xs_write_dr2(DR_MARK + 0x200);
	xs_write_dr3(DR_MARK + 0x300);
	xs_write_dr6(0xffff0ff1); /* B0 */
	xs_write_dr7(0x500); /* LE: no breakpoint enabled */
	/* Not the reset value: the next guest must see 1 again. */
	if (xs_has_xsave())
		xs_xsetbv(0, XCR0_X87 | XCR0_SSE);
	report(xs_read_dr0() == DR_MARK, "markers in XMM%s, DR0-DR3%s",
	       ymm ? "/YMM" : "", xs_has_xsave() ? ", XCR0 3" : "");
}

static void xstate_body(void)
{
	bool ymm = xs_has_avx();
	unsigned bad = 0;
	u64 xcr0;

	xs_enable();
	if (xs_has_xsave()) {
		xcr0 = xs_xgetbv(0);
		report(xcr0 == XCR0_X87, "XCR0 %#llx at start (reset value 1)",
		       (unsigned long long)xcr0);
	} else {
		report_info("no XSAVE in CPUID: XCR0 not checked");
	}
	if (ymm)
		xs_xsetbv(0, XCR0_X87 | XCR0_SSE | XCR0_AVX);
	for (unsigned i = 0; i < sizeof(regs); i++)
		regs[i] = 0x5a;
	xs_store(regs, ymm);
	for (unsigned i = 0; i < sizeof(regs); i++)
		if ((ymm || (i & 31) < 16) && regs[i])
			bad++;
	report(bad == 0, "%u non-zero bytes in %s0-15 at start (e.g. %#x)", bad,
	       ymm ? "YMM" : "XMM", regs[0]);
	report(xs_mxcsr() == 0x1f80, "MXCSR %#x at start (init 0x1f80)",
	       xs_mxcsr());
}

static void debugregs_body(void)
{
	u64 d0 = xs_read_dr0(), d1 = xs_read_dr1(), d2 = xs_read_dr2(),
	    d3 = xs_read_dr3(), d6 = xs_read_dr6(), d7 = xs_read_dr7();

	report(!d0 && !d1 && !d2 && !d3,
	       "DR0-DR3 at start: %#llx %#llx %#llx %#llx (all 0 expected)",
	       (unsigned long long)d0, (unsigned long long)d1,
	       (unsigned long long)d2, (unsigned long long)d3);
	report(d6 == 0xffff0ff0, "DR6 %#llx at start", (unsigned long long)d6);
	report(d7 == 0x400, "DR7 %#llx at start", (unsigned long long)d7);
}

const struct scenario scn_hostile_xstate_dirty = { "hostile_xstate_dirty",
						   "hostile", NULL, dirty_body,
						   SCN_MANUAL };
const struct scenario scn_hostile_xstate = { "hostile_xstate", "hostile", NULL,
					     xstate_body, SCN_MANUAL };
const struct scenario scn_hostile_debugregs = { "hostile_debugregs", "hostile",
						NULL, debugregs_body,
						SCN_MANUAL };
