// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_mtrr_policy.c - mtrr_need_flush(): when the two WBINVDs
 * may be skipped. Pure function: no fake CPU involved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/test_mtrr_fixture.h"

static struct features ss = { .self_snoop = true, .mtrr = true };
static struct features no_ss = { .self_snoop = false, .mtrr = true };
static struct mtrr_state o, n;

static int setup(void **st)
{
	(void)st;
	t_state(&o);
	t_state(&n);
	return 0;
}

static bool flush(const struct features *f, enum tristate force,
		  const char *why_has)
{
	const char *why = NULL;
	bool r = mtrr_need_flush(f, &o, &n, force, &why);

	assert_non_null(why);
	if (why_has && !strstr(why, why_has))
		fail_msg("why \"%s\" lacks \"%s\"", why, why_has);
	return r;
}

static void test_no_self_snoop_flushes(void **st)
{
	(void)st;
	assert_true(flush(&no_ss, TRI_AUTO, "no self-snoop"));
}

static void test_self_snoop_same_state_skips(void **st)
{
	(void)st;
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
}

static void test_unknown_old_flushes(void **st)
{
	const char *why;

	(void)st;
	assert_true(mtrr_need_flush(&ss, NULL, &n, TRI_AUTO, &why));
	assert_non_null(strstr(why, "unknown"));
}

static void test_force_on_and_off(void **st)
{
	(void)st;
	assert_true(flush(&ss, TRI_ON, "mtrr_flush=on"));
	assert_false(flush(&no_ss, TRI_OFF, "mtrr_flush=off"));
	/* off wins even over a cacheable -> UC change */
	n.def_type = MTRR_DEF_TYPE_E | MTRR_TYPE_UC;
	assert_false(flush(&no_ss, TRI_OFF, "unsafe"));
}

static void test_default_wb_to_uc_flushes(void **st)
{
	(void)st;
	n.def_type = MTRR_DEF_TYPE_E | MTRR_DEF_TYPE_FE | MTRR_TYPE_UC;
	assert_true(flush(&ss, TRI_AUTO, "default type"));
}

static void test_default_uc_to_wb_skips(void **st)
{
	(void)st;
	o.def_type = MTRR_DEF_TYPE_E | MTRR_DEF_TYPE_FE | MTRR_TYPE_UC;
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
}

static void test_disable_flushes_enable_skips(void **st)
{
	(void)st;
	n.def_type &= ~MTRR_DEF_TYPE_E;
	assert_true(flush(&ss, TRI_AUTO, "disabled"));
	/* and the other way: everything was UC, nothing can become UC */
	t_state(&n);
	o.def_type &= ~MTRR_DEF_TYPE_E;
	n.var[1].base = (4ULL << 30) | MTRR_TYPE_UC;
	n.var[1].mask = T_VMASK(1ULL << 30);
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
}

static void test_var_uc_over_wb_flushes(void **st)
{
	(void)st;
	n.var[1].base = (4ULL << 30) | MTRR_TYPE_UC; /* default WB there */
	n.var[1].mask = T_VMASK(1ULL << 30);
	assert_true(flush(&ss, TRI_AUTO, "variable range"));
	/* a UC range only partly inside an old UC one: 9..10 GiB was WB */
	t_state(&n);
	o.var[1].base = (8ULL << 30) | MTRR_TYPE_UC;
	o.var[1].mask = T_VMASK(1ULL << 30);
	n.var[1] = o.var[1];
	n.var[2].base = (8ULL << 30) | MTRR_TYPE_UC;
	n.var[2].mask = T_VMASK(2ULL << 30);
	assert_true(flush(&ss, TRI_AUTO, "variable range"));
}

static void test_var_uc_inside_uc_skips(void **st)
{
	(void)st;
	/* 3 GiB..3.5 GiB lies inside the UC hole already */
	n.var[1].base = (3ULL << 30) | MTRR_TYPE_UC;
	n.var[1].mask = T_VMASK(512ULL << 20);
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
	/* moved to another slot: still UC before */
	t_state(&n);
	n.var[0] = (struct mtrr_var){ 0, 0 };
	n.var[5].base = 0x80000000ULL | MTRR_TYPE_UC;
	n.var[5].mask = T_VMASK(2ULL << 30);
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
}

static void test_var_wb_to_uc_under_uc_default_flushes(void **st)
{
	(void)st;
	o.def_type = MTRR_DEF_TYPE_E | MTRR_TYPE_UC;
	n.def_type = MTRR_DEF_TYPE_E | MTRR_TYPE_UC;
	o.var[1].base = MTRR_TYPE_WB;
	o.var[1].mask = T_VMASK(2ULL << 30);
	n.var[1] = o.var[1];
	/* same range changes type WB -> UC */
	n.var[1].base = MTRR_TYPE_UC;
	assert_true(flush(&ss, TRI_AUTO, "variable range"));
	/* the WB range goes away: memory falls back to UC default */
	n.var[1] = (struct mtrr_var){ 0, 0 };
	assert_true(flush(&ss, TRI_AUTO, "default type is UC"));
	/* WB -> WC stays cacheable */
	n.var[1] = o.var[1];
	n.var[1].base = MTRR_TYPE_WC;
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
}

static void test_var_removed_default_wb_skips(void **st)
{
	(void)st;
	o.var[1].base = (4ULL << 30) | MTRR_TYPE_WT;
	o.var[1].mask = T_VMASK(1ULL << 30);
	/* WT range dropped: memory becomes default WB, still cacheable */
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
	/* removing the UC hole makes memory cacheable: no flush needed */
	t_state(&o);
	n.var[0] = (struct mtrr_var){ 0, 0 };
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
}

static void test_fixed_wb_to_uc_flushes(void **st)
{
	(void)st;
	n.fixed[0] = 0x0606060606060600ULL; /* first 64 KiB -> UC */
	assert_true(flush(&ss, TRI_AUTO, "fixed range"));
	t_state(&n);
	n.fixed[2] = 0x0606060606060606ULL; /* VGA UC -> WB */
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
	t_state(&n);
	n.fixed[3] = 0x0505050505050501ULL; /* WP -> WC */
	assert_false(flush(&ss, TRI_AUTO, "skipped"));
}

static void test_fixed_disabled_flushes(void **st)
{
	(void)st;
	n.def_type &= ~MTRR_DEF_TYPE_FE;
	assert_true(flush(&ss, TRI_AUTO, "fixed ranges get disabled"));
	/* fixed ranges switched on with a UC byte over WB memory */
	t_state(&n);
	o.def_type &= ~MTRR_DEF_TYPE_FE;
	assert_true(flush(&ss, TRI_AUTO, "enabled fixed ranges"));
}

int t_policy_tests(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup(test_no_self_snoop_flushes, setup),
		cmocka_unit_test_setup(test_self_snoop_same_state_skips, setup),
		cmocka_unit_test_setup(test_unknown_old_flushes, setup),
		cmocka_unit_test_setup(test_force_on_and_off, setup),
		cmocka_unit_test_setup(test_default_wb_to_uc_flushes, setup),
		cmocka_unit_test_setup(test_default_uc_to_wb_skips, setup),
		cmocka_unit_test_setup(test_disable_flushes_enable_skips,
				       setup),
		cmocka_unit_test_setup(test_var_uc_over_wb_flushes, setup),
		cmocka_unit_test_setup(test_var_uc_inside_uc_skips, setup),
		cmocka_unit_test_setup(
			test_var_wb_to_uc_under_uc_default_flushes, setup),
		cmocka_unit_test_setup(test_var_removed_default_wb_skips,
				       setup),
		cmocka_unit_test_setup(test_fixed_wb_to_uc_flushes, setup),
		cmocka_unit_test_setup(test_fixed_disabled_flushes, setup),
	};

	return cmocka_run_group_tests_name("mtrr_policy", t, NULL, NULL);
}
