// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_ras.c - machine checks and unexpected NMIs (hv/ras/)
 * against fake MSRs, a fake port 61h and the fake console: the banks are
 * logged and cleared (MCi_STATUS before MCG_STATUS), a host #MC carries on
 * only with RIPV and without PCC, a guest's #MC and MCIP-shutdown stop only
 * the guest, an unknown NMI is counted and never fatal, lines a handler
 * cannot print at once are queued, and the run's KTAP result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cr.h"
#include "arch/msr.h"
#include "arch/timers.h"
#include "hv/features.h"
#include "hv/ktap.h"
#include "hv/ras/internal.h"
#include "hv/stop.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_trap.h"
#include "tests/doubles/state_hooks.h"

#define BANKS 4
#define ST_UC (MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN)

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_console_clear();
	fake_console_busy = false;
	fake_trap_reset();
	ktap_reset();
	memset(&g_features, 0, sizeof(g_features));
	g_features.mce = g_features.mca = true;
	g_mca_banks = 0;
	g_mce_host = g_mce_guest = g_nmi_unknown = g_ras_dropped = 0;
	fake_msr_define(MSR_MCG_CAP, BANKS | MCG_CAP_CTL_P);
	fake_msr_define(MSR_MCG_STATUS, 0);
	fake_msr_define(MSR_MCG_CTL, 0);
	for (int i = 0; i < BANKS; i++) {
		fake_msr_define(MSR_MC_CTL(i), 0);
		fake_msr_define(MSR_MC_STATUS(i), 0);
		fake_msr_define(MSR_MC_ADDR(i), 0);
		fake_msr_define(MSR_MC_MISC(i), 0);
	}
	fake_cpus[0].cr4 &= ~CR4_MCE;
	return 0;
}

/* An error in bank b, and the global status the CPU sets with it. */
static void inject(int b, u64 status, u64 addr, u64 mcg)
{
	fake_msr_define(MSR_MC_STATUS(b), status);
	fake_msr_define(MSR_MC_ADDR(b), addr);
	fake_msr_define(MSR_MCG_STATUS, mcg);
}

/* Both lines are in the trace, first before second. */
static void expect_order(const char *first, const char *second)
{
	int a = fake_trace_find(first), b = fake_trace_find(second);

	assert_true(a >= 0);
	assert_true(b >= 0);
	assert_true(a < b);
}

static void expect_cleared(void)
{
	for (int i = 0; i < BANKS; i++)
		assert_int_equal(fake_msr_read(0, MSR_MC_STATUS(i)), 0);
	assert_int_equal(fake_msr_read(0, MSR_MCG_STATUS), 0);
}

static void test_boot_init_enables_and_logs_leftovers(void **s)
{
	(void)s;
	inject(2, MCI_STATUS_VAL | MCI_STATUS_EN | 0x1234, 0, 0);
	fake_trace_clear();
	ras_boot_init();
	assert_int_equal(g_mca_banks, BANKS);
	assert_true(fake_cpus[0].cr4 & CR4_MCE);
	assert_non_null(fake_idt[VEC_MC]);
	assert_non_null(fake_idt[VEC_NMI]); /* until hv/smp takes over */
	assert_int_equal(fake_msr_read(0, MSR_MCG_CTL), ~0ULL);
	for (int i = 0; i < BANKS; i++)
		assert_int_equal(fake_msr_read(0, MSR_MC_CTL(i)), ~0ULL);
	/* the left-over error is logged, cleared, and not held against
	 * the run */
	assert_true(fake_console_has("left from before minhv"));
	assert_true(fake_console_has("bank 2: STATUS 0x9000000000001234"));
	expect_cleared();
	assert_int_equal(g_mce_host + g_mce_guest, 0);
	/* logged and cleared before the banks are opened up */
	expect_order("wrmsr 0x409 0\n", "wrmsr 0x400 0xffffffffffffffff");
}

static void test_no_mce_feature_leaves_cr4(void **s)
{
	(void)s;
	g_features.mce = g_features.mca = false;
	ras_boot_init();
	assert_false(fake_cpus[0].cr4 & CR4_MCE);
	assert_int_equal(g_mca_banks, 0);
	assert_int_equal(fake_cpus[0].wrmsr_count, 0);
}

static void test_host_mce_with_ripv_carries_on(void **s)
{
	struct trap_frame f = { .vector = VEC_MC, .rip = 0x1234 };

	(void)s;
	ras_boot_init();
	inject(1, ST_UC | MCI_STATUS_ADDRV, 0xdead000,
	       MCG_STATUS_MCIP | MCG_STATUS_RIPV);
	fake_trace_clear();
	assert_int_equal(FAKE_CATCH_STOP(fake_idt[VEC_MC](&f)), -1);
	assert_int_equal(g_mce_host, 1);
	expect_cleared();
	/* MCIP goes last: a second #MC before the banks are clear must not
	 * find it gone (Linux's do_machine_check() order) */
	expect_order("wrmsr 0x405 0\n", "wrmsr 0x17a 0\n");
	assert_true(
		fake_console_has("machine check in host mode at RIP 0x1234"));
	assert_true(fake_console_has(
		"bank 1: STATUS 0xb400000000000000 ADDR 0xdead000"));
	assert_true(fake_console_has("carrying on"));
	/* the run goes on, but it fails */
	ras_report();
	assert_int_equal(ktap_failures(), 1);
	assert_true(fake_console_has(
		"machine checks: 1 in host mode, 0 in guests"));
}

static void test_host_mce_without_ripv_stops(void **s)
{
	struct trap_frame f = { .vector = VEC_MC };

	(void)s;
	ras_boot_init();
	inject(0, ST_UC, 0, MCG_STATUS_MCIP | MCG_STATUS_EIPV);
	assert_int_equal(FAKE_CATCH_STOP(fake_idt[VEC_MC](&f)), STOP_FAIL);
	assert_non_null(strstr(fake_trap_fatal_why, "without RIPV"));
	assert_true(fake_console_has("bank 0: STATUS"));
	expect_cleared();
}

static void test_host_mce_pcc_stops(void **s)
{
	struct trap_frame f = { .vector = VEC_MC };

	(void)s;
	ras_boot_init();
	inject(3, ST_UC | MCI_STATUS_PCC, 0, MCG_STATUS_MCIP | MCG_STATUS_RIPV);
	assert_int_equal(FAKE_CATCH_STOP(fake_idt[VEC_MC](&f)), STOP_FAIL);
	assert_non_null(strstr(fake_trap_fatal_why, "PCC"));
}

static void test_guest_mce_clears_and_reports(void **s)
{
	char why[160];

	(void)s;
	ras_boot_init();
	inject(1, ST_UC, 0, MCG_STATUS_MCIP | MCG_STATUS_RIPV);
	assert_int_equal(FAKE_CATCH_STOP(ras_mce_guest(3, why, sizeof(why))),
			 -1);
	assert_non_null(strstr(why, "machine check (#MC intercept)"));
	assert_true(fake_console_has("while vCPU 3 ran"));
	expect_cleared();
	assert_int_equal(g_mce_guest, 1);
	assert_int_equal(g_mce_host, 0);
	/* PCC: the CPU itself cannot be trusted, the whole run stops */
	inject(1, ST_UC | MCI_STATUS_PCC, 0, MCG_STATUS_MCIP);
	assert_int_equal(FAKE_CATCH_STOP(ras_mce_guest(3, why, sizeof(why))),
			 STOP_FAIL);
}

static void test_shutdown_with_mcip_is_a_machine_check(void **s)
{
	char why[160] = "";

	(void)s;
	ras_boot_init();
	/* a plain triple fault: not ours, nothing touched */
	fake_trace_clear();
	assert_false(ras_mce_shutdown(0, why, sizeof(why)));
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_int_equal(g_mce_guest, 0);
	/* MCIP set: the guest could not take a #MC */
	inject(2, ST_UC, 0, MCG_STATUS_MCIP | MCG_STATUS_RIPV);
	assert_true(ras_mce_shutdown(0, why, sizeof(why)));
	assert_non_null(strstr(why, "SHUTDOWN with MCIP"));
	expect_cleared();
	assert_int_equal(g_mce_guest, 1);
	ras_report();
	assert_int_equal(ktap_failures(), 1);
}

static void test_unknown_nmi_counted_not_fatal(void **s)
{
	struct trap_frame f = { .vector = VEC_NMI, .rip = 0x40 };

	(void)s;
	fake_io_set_in(PORT61_SERR | PORT61_OUT2 | PORT61_GATE2);
	fake_trace_clear();
	assert_int_equal(FAKE_CATCH_STOP(ras_nmi_unknown(&f)), -1);
	assert_int_equal(g_nmi_unknown, 1);
	assert_true(fake_console_has("unexpected NMI 1 on CPU 0"));
	assert_true(fake_console_has("(SERR#)"));
	/* SERR# cleared and left disabled; status bits written as 0 */
	assert_int_equal(fake_trace_count("outb 0x61 0x5\n"), 1);
	/* no reason bit: nothing written */
	fake_io_set_in(PORT61_OUT2);
	fake_trace_clear();
	ras_nmi_unknown(&f);
	assert_int_equal(fake_trace_count("outb"), 0);
	assert_true(fake_console_has("unknown source"));
	/* a storm: eight lines, then a count */
	for (int i = 0; i < 20; i++)
		ras_nmi_unknown(&f);
	assert_int_equal(g_nmi_unknown, 22);
	assert_false(fake_console_has("unexpected NMI 9 "));
	assert_true(fake_console_has("further ones only counted"));
	/* NMIs do not fail the run */
	ras_report();
	assert_int_equal(ktap_failures(), 0);
	assert_true(fake_console_has("unexpected NMIs: 22"));
}

/* Before SMP set-up, an NMI is not the fatal trap of an empty slot. */
static void test_early_nmi(void **s)
{
	struct trap_frame f = { .vector = VEC_NMI };

	(void)s;
	ras_boot_init();
	fake_io_set_in(0);
	assert_int_equal(FAKE_CATCH_STOP(fake_idt[VEC_NMI](&f)), -1);
	assert_int_equal(g_nmi_unknown, 1);
}

static void test_iochk_rearmed(void **s)
{
	struct trap_frame f = { .vector = VEC_NMI };

	(void)s;
	fake_io_set_in(PORT61_IOCHK | PORT61_GATE2);
	fake_trace_clear();
	ras_nmi_unknown(&f);
	/* cleared (bit 3 set), then enabled again (bit 3 clear) */
	expect_order("outb 0x61 0x9\n", "outb 0x61 0x1\n");
}

static void test_busy_console_lines_are_queued(void **s)
{
	struct trap_frame f = { .vector = VEC_NMI };

	(void)s;
	fake_io_set_in(0);
	fake_console_busy = true; /* this CPU holds the lock */
	ras_nmi_unknown(&f);
	assert_false(fake_console_has("unexpected NMI"));
	fake_console_busy = false;
	/* The boot CPU's next tick prints it, not only the run's end. */
	ras_tick();
	assert_true(fake_console_has("unexpected NMI 1 on CPU 0"));
	fake_console_clear();
	ras_tick();
	assert_false(fake_console_has("unexpected NMI"));
	ras_nmi_unknown(&f);
	fake_console_clear();
	fake_console_busy = true;
	ras_nmi_unknown(&f);
	fake_console_busy = false;
	ras_report();
	assert_true(fake_console_has("unexpected NMI 3 on CPU 0"));
	/* the queued line comes before the summary */
	assert_true(strstr(fake_console_text(), "unexpected NMI 3") <
		    strstr(fake_console_text(), "ras: machine checks"));
}

static void test_clean_run_passes(void **s)
{
	(void)s;
	ras_boot_init();
	ras_report();
	assert_int_equal(ktap_count(), 1);
	assert_int_equal(ktap_failures(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
			test_boot_init_enables_and_logs_leftovers, setup),
		cmocka_unit_test_setup(test_no_mce_feature_leaves_cr4, setup),
		cmocka_unit_test_setup(test_host_mce_with_ripv_carries_on,
				       setup),
		cmocka_unit_test_setup(test_host_mce_without_ripv_stops, setup),
		cmocka_unit_test_setup(test_host_mce_pcc_stops, setup),
		cmocka_unit_test_setup(test_guest_mce_clears_and_reports,
				       setup),
		cmocka_unit_test_setup(
			test_shutdown_with_mcip_is_a_machine_check, setup),
		cmocka_unit_test_setup(test_unknown_nmi_counted_not_fatal,
				       setup),
		cmocka_unit_test_setup(test_early_nmi, setup),
		cmocka_unit_test_setup(test_iochk_rearmed, setup),
		cmocka_unit_test_setup(test_busy_console_lines_are_queued,
				       setup),
		cmocka_unit_test_setup(test_clean_run_passes, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
