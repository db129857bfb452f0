// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_guest_run.c - a guest's whole life over the world-switch
 * double: guest_create() (hv/guest/guest.c), the run (hv/run/run.c, the
 * loop of hv/svm/vcpu_run.c) and guest_destroy(): every page goes back to
 * the pool, no vCPU is left in its loop (an AP waiting for INIT-SIPI on
 * another CPU included), the default run's KTAP verdicts say what the
 * guest did, and a guest that cannot be built leaves nothing allocated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/guest/guest.h"
#include "hv/loader/multiboot.h"
#include "hv/ktap.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/run/boot_info.h"
#include "hv/run/run.h"
#include "include/minhv/guest_layout.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_vmrun.h"
#include "tests/unit/run_fixture.h"

static int setup1(void **s)
{
	(void)s;
	rf_setup(1, RF_TSC_KHZ); /* 1 ms a read */
	return 0;
}

static int setup2(void **s)
{
	(void)s;
	rf_setup(2, RF_TSC_KHZ);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	rf_teardown();
	return 0;
}

/* Nothing of g runs: every vCPU out of guest mode and out of its loop,
 * and no loop still counted in g->active. */
static void check_idle(const struct guest *g)
{
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		assert_false(g->vcpus[i]->in_loop);
		assert_int_equal(g->vcpus[i]->in_guest, 0);
	}
	assert_int_equal(g->active, 0);
}

/* The default run's stage after the guest stopped, before its teardown:
 * every vCPU is out of its loop by then. */
static unsigned idle_checked;

static void check_idle_at_stop(enum selftest_stage st, struct selftest_ctx *c)
{
	if (st != ST_GUEST_STOPPED)
		return;
	check_idle(c->guest);
	idle_checked++;
}

static struct boot_info bi;

static const struct boot_info *boot_info_of(const struct guest_params *p)
{
	memset(&bi, 0, sizeof(bi));
	bi.guest_image = p->image;
	bi.guest_size = p->image_size;
	strcpy(bi.guest_name, "rt");
	return &bi;
}

/* The default run of minhv's test guest (hv/run/run.c): created, one
 * result reported, exited with 0; every verdict passes, the self-test
 * stages come in order, and the pool is whole again afterwards. */
static void test_default_run_restores_pool(void **s)
{
	const struct fake_exit script[] = {
		RF_HC(HC_REPORT, RF_NAME_GPA, HC_RESULT_OK),
		RF_HC(HC_EXIT, 0, 0),
	};
	struct guest_params p = rf_params(GUEST_MINHV, 1), ran;
	u64 before = mm_free_pages();

	(void)s;
	g_options.guest_mem_mb = RF_MEM >> 20;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	rf_stage_hook = check_idle_at_stop;
	idle_checked = 0;
	assert_int_equal(run_guest_image(boot_info_of(&p), "", &ran), 0);
	assert_int_equal(fake_vmrun_count(), 2);
	assert_int_equal(idle_checked, 1);
	assert_int_equal(rf_nstages, 2);
	assert_int_equal(rf_stages[0], ST_GUEST_CREATED);
	assert_int_equal(rf_stages[1], ST_GUEST_STOPPED);
	assert_ptr_equal(ran.image, p.image);
	assert_int_equal(mm_free_pages(), before);
	assert_int_equal(ktap_failures(), 0);
	ktap_finish();
	assert_true(fake_console_has("ok 1 run.one\n"));
	assert_true(fake_console_has(" svm.guest_create\n"));
	assert_true(fake_console_has(" svm.guest_run\n"));
	assert_true(fake_console_has(" svm.guest_reported\n"));
	assert_true(fake_console_has(" svm.guest_results\n"));
	assert_true(fake_console_has(" svm.pool_restored\n"));
	assert_true(fake_console_has("# Totals: pass:6 fail:0 skip:0"));
}

/* A guest that exits without a result: svm.guest_reported fails the run,
 * and the teardown still returns every page. */
static void test_default_run_without_results(void **s)
{
	const struct fake_exit script[] = { RF_HC(HC_EXIT, 0, 0) };
	struct guest_params p = rf_params(GUEST_MINHV, 1);
	u64 before = mm_free_pages();

	(void)s;
	g_options.guest_mem_mb = RF_MEM >> 20;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	assert_int_equal(run_guest_image(boot_info_of(&p), "", NULL), -EIO);
	assert_int_equal(mm_free_pages(), before);
	ktap_finish();
	assert_true(fake_console_has("not ok 3 svm.guest_reported\n"));
	assert_true(fake_console_has("ok 5 svm.pool_restored\n"));
	assert_false(fake_console_has("not ok 5 svm.pool_restored"));
}

/* More memory than the pool has: guest_create() fails and everything it
 * took on the way (the guest page, its ASID) is back; nothing ran. */
static void test_create_failure_leaks_nothing(void **s)
{
	struct guest_params p = rf_params(GUEST_MINHV, 1);
	u64 before = mm_free_pages();
	struct guest *g = (void *)1;

	(void)s;
	p.mem_size = RF_POOL;
	assert_int_equal(guest_create(&p, &g), -E2BIG);
	assert_null(g);
	assert_int_equal(mm_free_pages(), before);
	/* Its ASID is free again: the next guest gets the first one. */
	p.mem_size = 4ULL << 20;
	assert_int_equal(guest_create(&p, &g), 0);
	assert_int_equal(g->asid, 1);
	guest_destroy(g);
	assert_int_equal(fake_vmrun_count(), 0);
}

/* A multiboot kernel whose header has the magic but a wrong checksum is a
 * broken multiboot kernel: refused, naming the checksum (issue 24: it was
 * taken for minhv's own ELF64 guest and refused for a bad ELF magic). The
 * magic and a wrong checksum inside an ELF64 image stay minhv's guest. */
static void test_bad_multiboot_checksum_named(void **s)
{
	struct guest_params p = rf_params(GUEST_MULTIBOOT, 1);
	u8 *bytes = (u8 *)p.image;
	struct guest *g = (void *)1;

	(void)s;
	assert_int_equal(guest_kind_of(p.image, p.image_size), GUEST_MULTIBOOT);
	bytes[0x108] ^= 1; /* struct mb_header's checksum, at 0x100 */
	assert_int_equal(guest_kind_of(p.image, p.image_size), GUEST_MULTIBOOT);
	fake_console_clear();
	assert_int_equal(guest_create(&p, &g), -EINVAL);
	assert_null(g);
	assert_true(fake_console_has("multiboot: bad header checksum"));
	assert_false(fake_console_has("ELF"));

	p = rf_params(GUEST_MINHV, 1);
	bytes = (u8 *)p.image;
	memcpy(bytes + 0x1000, &(u32[3]){ MB_HEADER_MAGIC, 0, 1 }, 12);
	assert_int_equal(guest_kind_of(p.image, p.image_size), GUEST_MINHV);
}

static bool ap_seen;

/* vCPU 0's first exit lasts until vCPU 1 is in its loop on CPU 1. */
static void wait_for_ap(void)
{
	ap_seen = rf_wait_vcpu_on(1);
}

/* A foreign guest with two vCPUs: vCPU 1 starts on CPU 1 (a thread here)
 * and waits there in its loop for INIT-SIPI; vCPU 0 ends the guest
 * through isa-debug-exit. run_guest() returns only once vCPU 1 has left
 * its loop too; it never entered the guest; the pool is whole after
 * teardown. */
static void test_foreign_ap_leaves_at_stop(void **s)
{
	const struct fake_exit script[] = {
		{ .code = VMEXIT_INTR, .then = wait_for_ap },
		RF_OUTB(0xf4, 0),
	};
	struct guest_params p = rf_params(GUEST_MULTIBOOT, 2);
	u64 before = mm_free_pages();
	struct guest *g;

	(void)s;
	ap_seen = false;
	fake_vmrun_script(script, ARRAY_SIZE(script));
	assert_int_equal(run_guest_once(&p, &g), 0);
	assert_int_equal(g->kind, GUEST_MULTIBOOT);
	assert_int_equal(fake_vmrun_count(), 2);
	assert_int_equal(fake_vmrun_entry(0)->cpu, 0);
	assert_int_equal(fake_vmrun_entry(1)->cpu, 0);
	assert_int_equal(g->exit_status, 1); /* (0 << 1) | 1: a pass */
	assert_false(g->failed);
	check_idle(g);
	assert_true(g->vcpus[1]->lapic.wait_sipi);
	assert_int_equal(g->vcpus[1]->state, VCPU_RUNNING);
	assert_true(ap_seen);
	rf_join();
	guest_destroy(g);
	assert_int_equal(mm_free_pages(), before);
}

/* watchdog_ms=auto: on for minhv's own guest, off for a foreign one
 * (Linux's decompressor runs for seconds without an exit under TCG);
 * a number the user gives holds for both. */
static void test_watchdog_auto(void **s)
{
	(void)s;
	g_options.watchdog_ms = -1;
	assert_int_equal(run_watchdog_ms(true), RUN_WATCHDOG_MINHV_MS);
	assert_int_equal(run_watchdog_ms(false), 0);
	g_options.watchdog_ms = 500;
	assert_int_equal(run_watchdog_ms(true), 500);
	assert_int_equal(run_watchdog_ms(false), 500);
	g_options.watchdog_ms = 0;
	assert_int_equal(run_watchdog_ms(true), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_default_run_restores_pool,
						setup1, teardown),
		cmocka_unit_test_setup_teardown(
			test_default_run_without_results, setup1, teardown),
		cmocka_unit_test_setup_teardown(
			test_create_failure_leaks_nothing, setup1, teardown),
		cmocka_unit_test_setup_teardown(
			test_bad_multiboot_checksum_named, setup1, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_ap_leaves_at_stop,
						setup2, teardown),
		cmocka_unit_test(test_watchdog_auto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
