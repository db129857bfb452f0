// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_smp_boot.c - the bring-up state machine (hv/smp/boot.c)
 * against a fake APIC and clock: order of INIT/SIPI, delays, SIPI resend,
 * and an AP that never answers is reported and skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hv/smp/boot.h"
#include "tests/doubles/fake_console.h"

#define MAXAP 8
#define NEVER 1000 /* answers_after value for an AP that never answers */

/* The fake machine: an AP checks in once it has received answers_after
 * SIPIs (1 = answers the first), checkin_delay_us after that SIPI. */
struct fake {
	u64 now;
	u64 tick; /* clock advance per now_us() call */
	char log[4096];
	u32 answers_after[MAXAP];
	u32 sipis[MAXAP];
	u32 inits[MAXAP];
	u64 sipi_time[MAXAP][16];
	bool late[MAXAP]; /* checks in just as it is abandoned */
	u32 abandoned[MAXAP];
	struct ap_slot aps[MAXAP];
};

static void flog(struct fake *f, const char *fmt, ...)
{
	va_list ap;
	size_t l = strlen(f->log);

	va_start(ap, fmt);
	vsnprintf(f->log + l, sizeof(f->log) - l, fmt, ap);
	va_end(ap);
}

static u32 idx_of(struct fake *f, u32 apic_id)
{
	for (u32 i = 0; i < MAXAP; i++)
		if (f->aps[i].apic_id == apic_id)
			return i;
	fail_msg("IPI to unknown APIC ID %u", apic_id);
	return 0;
}

static void f_init(void *c, u32 id)
{
	struct fake *f = c;

	f->inits[idx_of(f, id)]++;
	flog(f, "I%u@%llu ", id, (unsigned long long)f->now);
}

static void f_sipi(void *c, u32 id)
{
	struct fake *f = c;
	u32 i = idx_of(f, id);

	assert_true(f->inits[i] > 0); /* never a SIPI before INIT */
	f->sipi_time[i][f->sipis[i] < 16 ? f->sipis[i] : 15] = f->now;
	f->sipis[i]++;
	flog(f, "S%u@%llu ", id, (unsigned long long)f->now);
}

static bool f_checked_in(void *c, u32 i)
{
	struct fake *f = c;

	return f->sipis[i] >= f->answers_after[i];
}

static bool f_abandon(void *c, u32 i)
{
	struct fake *f = c;

	f->abandoned[i]++;
	return !f->late[i];
}

static u64 f_now(void *c)
{
	struct fake *f = c;

	f->now += f->tick;
	return f->now;
}

static struct fake F;
static const struct smp_boot_hw HW = { f_init,	  f_sipi, f_checked_in,
				       f_abandon, f_now,  &F };

static struct smp_boot_cfg cfg(bool parallel)
{
	return (struct smp_boot_cfg){ .parallel = parallel,
				      .init_delay_us = 0,
				      .sipi_gap_us = 200,
				      .timeout_us = 100000,
				      .sipi_max = 4 };
}

static void setup_aps(u32 n, const u32 *ids)
{
	memset(&F, 0, sizeof(F));
	F.tick = 10;
	for (u32 i = 0; i < n; i++) {
		F.aps[i].apic_id = ids[i];
		F.answers_after[i] = 1;
	}
	fake_console_clear();
}

/* Run to completion; fail if it never ends (bounded polls). */
static struct smp_boot run(const struct smp_boot_cfg *c, u32 n)
{
	struct smp_boot b;
	unsigned polls = 0;

	smp_boot_begin(&b, c, &HW, F.aps, n);
	while (!smp_boot_poll(&b))
		assert_true(++polls < 1000000);
	return b;
}

static void test_parallel_all_answer(void **s)
{
	const u32 ids[] = { 1, 2, 300 };
	struct smp_boot_cfg c = cfg(true);
	struct smp_boot b;

	(void)s;
	setup_aps(3, ids);
	b = run(&c, 3);
	assert_int_equal(b.online, 3);
	assert_int_equal(b.failed, 0);
	assert_int_equal(b.resends, 0);
	/* parallel: every INIT goes out before the first SIPI */
	assert_string_equal(F.log, "I1@10 I2@10 I300@10 S1@10 S2@10 S300@10 ");
	for (u32 i = 0; i < 3; i++)
		assert_int_equal(F.aps[i].state, AP_ONLINE);
}

static void test_serial_one_at_a_time(void **s)
{
	const u32 ids[] = { 4, 5 };
	struct smp_boot_cfg c = cfg(false);
	struct smp_boot b;

	(void)s;
	setup_aps(2, ids);
	b = run(&c, 2);
	assert_int_equal(b.online, 2);
	/* serial: the second AP gets INIT only after the first checked in */
	assert_string_equal(F.log, "I4@10 S4@10 I5@30 S5@30 ");
}

static void test_init_delay_respected(void **s)
{
	const u32 ids[] = { 1 };
	struct smp_boot_cfg c = cfg(false);

	(void)s;
	setup_aps(1, ids);
	c.init_delay_us = 10000;
	run(&c, 1);
	assert_int_equal(F.sipis[0], 1);
	/* INIT at 10, SIPI no earlier than 10 + 10000 */
	assert_true(F.sipi_time[0][0] >= 10010);
	assert_true(F.sipi_time[0][0] <= 10030);
}

static void test_second_sipi_after_gap_then_resends(void **s)
{
	const u32 ids[] = { 7 };
	struct smp_boot_cfg c = cfg(false);
	struct smp_boot b;

	(void)s;
	setup_aps(1, ids);
	F.answers_after[0] = 3; /* first two SIPIs "dropped" */
	b = run(&c, 1);
	assert_int_equal(b.online, 1);
	assert_int_equal(b.failed, 0);
	assert_int_equal(F.sipis[0], 3);
	assert_int_equal(b.resends, 2);
	assert_int_equal(F.inits[0], 1);
	/* SIPI 2 follows SIPI 1 after the 200 us gap, SIPI 3 after the
	 * full timeout */
	assert_true(F.sipi_time[0][1] - F.sipi_time[0][0] >= 200);
	assert_true(F.sipi_time[0][1] - F.sipi_time[0][0] < 300);
	assert_true(F.sipi_time[0][2] - F.sipi_time[0][1] >= 100000);
	assert_true(F.sipi_time[0][2] - F.sipi_time[0][1] < 100100);
}

static void silent_ap(bool parallel)
{
	const u32 ids[] = { 1, 0x1234, 3 };
	struct smp_boot_cfg c = cfg(parallel);
	struct smp_boot b;

	setup_aps(3, ids);
	F.answers_after[1] = NEVER;
	b = run(&c, 3);
	assert_int_equal(b.online, 2);
	assert_int_equal(b.failed, 1);
	assert_int_equal(F.aps[0].state, AP_ONLINE);
	assert_int_equal(F.aps[1].state, AP_FAILED);
	assert_int_equal(F.aps[2].state, AP_ONLINE);
	/* it got every SIPI allowed, was abandoned once, then left alone */
	assert_int_equal(F.sipis[1], 4);
	assert_int_equal(b.resends, 3);
	assert_int_equal(F.abandoned[1], 1);
	assert_int_equal(F.abandoned[0] + F.abandoned[2], 0);
	/* the CPU after it was still started */
	assert_int_equal(F.sipis[2], 1);
	smp_boot_report(&b);
	assert_true(fake_console_has("APIC ID 4660 did not check in after 4 "
				     "SIPIs; left out"));
	assert_false(fake_console_has("APIC ID 1 "));
	assert_false(fake_console_has("APIC ID 3 "));
}

static void test_silent_ap_serial(void **s)
{
	(void)s;
	silent_ap(false);
	/* serial: AP 3 starts only once AP 0x1234 was given up */
	assert_true(F.sipi_time[2][0] >= F.sipi_time[1][3] + 100000);
}

static void test_silent_ap_parallel(void **s)
{
	(void)s;
	silent_ap(true);
	/* parallel: AP 3 did not wait for the silent one */
	assert_true(F.sipi_time[2][0] < F.sipi_time[1][1]);
}

static void test_late_checkin_counts_online(void **s)
{
	const u32 ids[] = { 9 };
	struct smp_boot_cfg c = cfg(false);
	struct smp_boot b;

	(void)s;
	setup_aps(1, ids);
	F.answers_after[0] = NEVER;
	F.late[0] = true;
	c.sipi_max = 1;
	b = run(&c, 1);
	assert_int_equal(F.sipis[0], 1);
	assert_int_equal(b.online, 1);
	assert_int_equal(b.failed, 0);
	assert_int_equal(F.aps[0].state, AP_ONLINE);
}

static void test_no_aps(void **s)
{
	struct smp_boot_cfg c = cfg(true);
	struct smp_boot b;

	(void)s;
	setup_aps(0, NULL);
	b = run(&c, 0);
	assert_int_equal(b.online + b.failed, 0);
	assert_string_equal(F.log, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parallel_all_answer),
		cmocka_unit_test(test_serial_one_at_a_time),
		cmocka_unit_test(test_init_delay_respected),
		cmocka_unit_test(test_second_sipi_after_gap_then_resends),
		cmocka_unit_test(test_silent_ap_serial),
		cmocka_unit_test(test_silent_ap_parallel),
		cmocka_unit_test(test_late_checkin_counts_online),
		cmocka_unit_test(test_no_aps),
	};

	return cmocka_run_group_tests_name("smp_boot", tests, NULL, NULL);
}
