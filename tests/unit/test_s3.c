// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_s3.c - ACPI S3 on the guest platform: the PM1 registers
 * (write-1-to-clear, SLP_EN), the MC146818 RTC (UIP timing, time in BCD
 * and binary, register C clear-on-read, the alarm), and S3 entered by an
 * OUT exit (the vCPU does not continue) and resumed at the waking vector. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cr.h"
#include "arch/errno.h"
#include "hv/platform/platform.h"
#include "hv/svm/exit.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/exits_fixture.h"
#include "tests/unit/svm_fixture.h"

#define KHZ 1000000ULL /* a 1 GHz TSC: 1 ns per cycle */
#define SEC (KHZ * 1000)
#define US (KHZ / 1000)
#define TABLES 0xe0000ULL

/* ---- PM1 block ---- */

static void test_pm1_sts_write_one_clears(void **s)
{
	struct acpi_pm pm = { .sts = PM1_STS_WAK | PM1_STS_RTC | 1 };

	(void)s;
	assert_int_equal(acpi_pm1_write(&pm, 0, 2, 0), -ENOENT);
	assert_int_equal(pm.sts, PM1_STS_WAK | PM1_STS_RTC | 1);
	acpi_pm1_write(&pm, 0, 2, PM1_STS_WAK);
	assert_int_equal(pm.sts, PM1_STS_RTC | 1);
	acpi_pm1_write(&pm, 1, 1, PM1_STS_RTC >> 8); /* the high byte */
	assert_int_equal(pm.sts, 1);
	assert_int_equal(acpi_pm1_read(&pm, 0, 2), 1);
}

static void test_pm1_en_cnt(void **s)
{
	struct acpi_pm pm = { .cnt = PM1_CNT_SCI_EN };

	(void)s;
	acpi_pm1_write(&pm, 2, 2, PM1_EN_RTC); /* as s3.c: outw(0x400, +2) */
	assert_int_equal(pm.en, PM1_EN_RTC);
	assert_int_equal(pm.sts, 0); /* PM1_STS untouched */
	assert_int_equal(acpi_pm1_read(&pm, 0, 4), PM1_EN_RTC << 16);
	/* SLP_TYP alone: stored, no sleep; SCI_EN written as given. */
	assert_int_equal(acpi_pm1_write(&pm, 4, 2, 0x0401), -ENOENT);
	assert_int_equal(acpi_pm1_read(&pm, 4, 2), 0x0401);
	/* SLP_EN enters SLP_TYP and reads back 0 (write-only). */
	assert_int_equal(acpi_pm1_write(&pm, 4, 2, 0x2400), SLP_TYP_S3);
	assert_int_equal(acpi_pm1_read(&pm, 4, 2), 0x0400);
	assert_int_equal(acpi_pm1_write(&pm, 5, 1, 0x20), SLP_TYP_S5);
	assert_int_equal(acpi_pm1_write(&pm, 4, 1, 0xff),
			 -ENOENT); /* low byte */
	assert_int_equal(pm.en, PM1_EN_RTC);
}

/* ---- RTC ---- */

static u8 rd(struct rtc_cmos *r, u8 reg, u64 t)
{
	return rtc_read(r, reg, t, KHZ);
}

static void test_rtc_time_bcd_binary_12h(void **s)
{
	struct rtc_cmos r = RTC_INIT;
	u64 t = 3725 * SEC; /* 2026-01-01 01:02:05, a Thursday */

	(void)s;
	assert_int_equal(rd(&r, 0, t), 0x05);
	assert_int_equal(rd(&r, 2, t), 0x02);
	assert_int_equal(rd(&r, 4, t), 0x01);
	assert_int_equal(rd(&r, 6, t), 5);
	assert_int_equal(rd(&r, 7, t), 0x01);
	assert_int_equal(rd(&r, 8, t), 0x01);
	assert_int_equal(rd(&r, 9, t), 0x26);
	assert_int_equal(rd(&r, 0x32, t), 0x20);
	assert_int_equal(rd(&r, 7, 45 * 86400 * SEC), 0x15); /* Feb 15 */
	assert_int_equal(rd(&r, 8, 45 * 86400 * SEC), 0x02);
	assert_int_equal(rd(&r, 0, 59 * SEC), 0x59);
	assert_int_equal(rd(&r, 11, t), RTC_REG_B_RESET);
	assert_int_equal(rd(&r, 13, t), 0x80); /* VRT */
	assert_int_equal(rd(&r, 0x40, t), 0); /* CMOS RAM */
	rtc_write(&r, 11, 0x04); /* binary, 12-hour */
	assert_int_equal(rd(&r, 0, 59 * SEC), 59);
	assert_int_equal(rd(&r, 4, 13 * 3600 * SEC), 0x81); /* 1 PM */
	assert_int_equal(rd(&r, 4, 0), 12); /* 12 AM */
	rtc_write(&r, 0, 0x30); /* the time is the TSC's */
	assert_int_equal(rd(&r, 0, t), 5);
}

static void test_rtc_uip_window(void **s)
{
	struct rtc_cmos r = RTC_INIT;

	(void)s;
	assert_int_equal(rd(&r, 10, SEC / 2), RTC_REG_A_RESET);
	assert_int_equal(rd(&r, 10, SEC - 250 * US), RTC_REG_A_RESET);
	assert_int_equal(rd(&r, 10, SEC - 240 * US), 0x80 | RTC_REG_A_RESET);
	assert_int_equal(rd(&r, 10, SEC - 1), 0x80 | RTC_REG_A_RESET);
	assert_int_equal(rd(&r, 10, SEC), RTC_REG_A_RESET);
	/* A poller that jumped over the window of 2 s still sees it once. */
	assert_int_equal(rd(&r, 10, 2 * SEC - 300 * US), RTC_REG_A_RESET);
	assert_int_equal(rd(&r, 10, 2 * SEC + 100 * US),
			 0x80 | RTC_REG_A_RESET);
	assert_int_equal(rd(&r, 10, 2 * SEC + 200 * US), RTC_REG_A_RESET);
	/* UIP is read-only; the rest of A is the guest's. */
	rtc_write(&r, 10, 0xa0);
	assert_int_equal(rd(&r, 10, 2 * SEC + 300 * US), 0x20);
}

static void test_rtc_reg_c_and_alarm(void **s)
{
	struct rtc_cmos r = RTC_INIT;

	(void)s;
	assert_int_equal(rd(&r, 12, SEC / 2), 0); /* no update yet */
	assert_int_equal(rd(&r, 12, 3 * SEC / 2), 0x10); /* UF */
	assert_int_equal(rd(&r, 12, 3 * SEC / 2 + 1), 0); /* cleared */
	/* Seconds alarm 0x03 (BCD), minutes and hours "don't care". */
	rtc_write(&r, 1, 0x03);
	rtc_write(&r, 3, 0xc0);
	rtc_write(&r, 5, 0xff);
	assert_int_equal(rd(&r, 1, 0), 0x03);
	assert_int_equal(rd(&r, 12, 2 * SEC + 1), 0x10); /* 2 s: no match */
	assert_int_equal(rd(&r, 12, 3 * SEC + 1), 0x30); /* 3 s: AF */
	rtc_write(&r, 11, RTC_REG_B_RESET | 0x20); /* AIE */
	assert_int_equal(rd(&r, 12, 63 * SEC + 1), 0xb0); /* IRQF */
	assert_int_equal(rd(&r, 12, 63 * SEC + 2), 0);
	/* The next alarm: only with AIE; the next match after t. */
	assert_int_equal(rtc_next_alarm(&r, 64 * SEC, KHZ), 123 * SEC);
	rtc_write(&r, 1, 0xc0);
	assert_int_equal(rtc_next_alarm(&r, 64 * SEC + 5, KHZ), 65 * SEC);
	rtc_write(&r, 1, 0x99); /* not a time: never */
	assert_int_equal(rtc_next_alarm(&r, 64 * SEC, KHZ), 0);
	rtc_write(&r, 1, 0xc0);
	rtc_write(&r, 11, RTC_REG_B_RESET);
	assert_int_equal(rtc_next_alarm(&r, 64 * SEC, KHZ), 0);
}

/* ---- S3 through the ports, as kvm-unit-tests' s3.c does it ---- */

static void out(u16 port, unsigned sz, u32 val)
{
	fx_v[0]->vmcb->save.rax = val;
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(port, sz, 0), RIP0 + 2),
			 EXIT_RESUME);
}

static void platform_on(u64 tsc0)
{
	fx_g->kind = GUEST_MULTIBOOT;
	fx_g->plat = (struct platform){ .nr_cpus = FX_VCPUS,
					.tsc_khz = KHZ,
					.pm_tsc0 = tsc0,
					.pm = ACPI_PM_INIT(TABLES),
					.rtc = RTC_INIT };
	for (u32 i = 0; i < FX_VCPUS; i++)
		vlapic_init(&fx_v[i]->lapic,
			    &(struct vlapic_config){ .vcpu_id = i,
						     .bsp = i == 0,
						     .x2apic = true,
						     .maxphyaddr = 48,
						     .tsc_khz = KHZ });
}

/* RTC_EN, alarm "every second", AIE, then SLP_TYP=1|SLP_EN at now. */
static void enter_s3(u64 now, bool rtc_en)
{
	fake_tsc_set(now, 0);
	out(PM1_EVT_PORT + 2, 1, rtc_en ? PM1_EN_RTC : 0);
	for (u8 reg = 1; reg <= 5; reg += 2) {
		out(RTC_PORT, 0, reg);
		out(RTC_PORT + 1, 0, 0xc0);
	}
	out(RTC_PORT, 0, 11);
	out(RTC_PORT + 1, 0, RTC_REG_B_RESET | 0x20);
	out(PM1_CNT_PORT, 1, 0x2400);
}

static void test_s3_entry_stops_every_vcpu(void **s)
{
	u64 tsc0 = 1000;

	(void)s;
	platform_on(tsc0);
	enter_s3(tsc0 + 5 * SEC + SEC / 4, true);
	assert_true(acpi_s3_asleep(&fx_g->plat));
	/* Every vCPU has INIT: the writer (vCPU 0) waits for SIPI instead of
	 * running the instruction after its OUT. */
	for (u32 i = 0; i < FX_VCPUS; i++)
		assert_true(fx_v[i]->lapic.init_pending);
	assert_int_equal(vlapic_take_startup(&fx_v[0]->lapic), -ENOENT);
	assert_true(fx_v[0]->lapic.wait_sipi);
	/* The alarm: the next update, at 6 s. */
	assert_int_equal(fx_g->plat.pm.wake_tsc, tsc0 + 6 * SEC);
	assert_false(fx_g->stopping);
}

static void test_s3_resume_real_mode(void **s)
{
	const struct vmcb_save *vs = &fx_v[0]->vmcb->save;
	u32 vec = 0x1234;
	u64 until = 1;

	(void)s;
	platform_on(0);
	fx_put(TABLES + ACPI_FACS_OFF + 12, &vec, 4);
	enter_s3(SEC / 2, true);
	vlapic_take_startup(&fx_v[0]->lapic);
	assert_int_equal(acpi_s3_poll(fx_v[0], SEC - 1, &until),
			 ACPI_S3_ASLEEP);
	assert_int_equal(until, SEC);
	assert_int_equal(fx_g->plat.pm.sts, 0);
	assert_int_equal(acpi_s3_poll(fx_v[0], SEC, &until), ACPI_S3_RESUMED);
	assert_false(acpi_s3_asleep(&fx_g->plat));
	assert_int_equal(fx_g->plat.pm.sts, PM1_STS_WAK | PM1_STS_RTC);
	/* CS = vector >> 4, IP = vector & 0xf, flat real mode, IF=0. */
	assert_int_equal(vs->cs.selector, 0x123);
	assert_int_equal(vs->cs.base, 0x1230);
	assert_int_equal(vs->cs.limit, 0xffff);
	assert_int_equal(vs->rip, 4);
	assert_int_equal(vs->ds.selector, 0);
	assert_int_equal(vs->ds.base, 0);
	assert_int_equal(vs->ss.base, 0);
	assert_int_equal(vs->es.limit, 0xffff);
	assert_int_equal(vs->rflags & RFLAGS_IF, 0);
	assert_int_equal(vs->cr0 & 1, 0);
	assert_false(fx_v[0]->lapic.wait_sipi);
	assert_int_equal(vlapic_apic_base_read(&fx_v[0]->lapic),
			 0xfee00000 | BIT(11) | BIT(8)); /* xAPIC, BSP */
	/* The APs stay in wait-for-SIPI. */
	assert_int_equal(vlapic_take_startup(&fx_v[1]->lapic), -ENOENT);
	assert_true(fx_v[1]->lapic.wait_sipi);
}

static void test_s3_without_wake_source(void **s)
{
	u64 until = 0;

	(void)s;
	platform_on(0);
	fx_g->deadline_tsc = 10 * SEC;
	enter_s3(SEC / 2, false); /* RTC_EN clear */
	assert_int_equal(fx_g->plat.pm.wake_tsc, 0);
	assert_int_equal(acpi_s3_poll(fx_v[0], 9 * SEC, &until),
			 ACPI_S3_ASLEEP);
	assert_int_equal(until, 10 * SEC);
	assert_false(fx_g->stopping);
	assert_int_equal(acpi_s3_poll(fx_v[0], 10 * SEC, &until),
			 ACPI_S3_STOPPED);
	assert_true(fx_g->stopping);
	assert_true(fx_g->failed);
	assert_non_null(strstr(fx_g->stop_reason, "S3"));
}

static void test_s3_zero_waking_vector_stops(void **s)
{
	u64 until;

	(void)s;
	platform_on(0);
	enter_s3(SEC / 2, true);
	assert_int_equal(acpi_s3_poll(fx_v[0], SEC, &until), ACPI_S3_STOPPED);
	assert_true(fx_g->failed);
	assert_non_null(strstr(fx_g->stop_reason, "waking vector"));
}

static void test_s5_soft_off(void **s)
{
	(void)s;
	platform_on(0);
	out(PM1_CNT_PORT, 1, 0x2000); /* SLP_TYP 0 | SLP_EN */
	assert_true(fx_g->stopping);
	assert_false(fx_g->failed);
	assert_int_equal(fx_g->exit_status, 0);
	assert_int_equal(fx_g->end, GUEST_END_POWEROFF);
	assert_false(acpi_s3_asleep(&fx_g->plat));
}

static void test_other_sleep_types_ignored(void **s)
{
	(void)s;
	platform_on(0);
	out(PM1_CNT_PORT, 1, 0x2800); /* SLP_TYP 2 | SLP_EN */
	assert_false(fx_g->stopping);
	assert_false(acpi_s3_asleep(&fx_g->plat));
	assert_false(fx_v[0]->lapic.init_pending);
	assert_int_equal(fx_v[0]->vmcb->save.rip, RIP0 + 2); /* continues */
}

#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_pm1_sts_write_one_clears),
		T(test_pm1_en_cnt),
		T(test_rtc_time_bcd_binary_12h),
		T(test_rtc_uip_window),
		T(test_rtc_reg_c_and_alarm),
		T(test_s3_entry_stops_every_vcpu),
		T(test_s3_resume_real_mode),
		T(test_s3_without_wake_source),
		T(test_s3_zero_waking_vector_stops),
		T(test_s5_soft_off),
		T(test_other_sleep_types_ignored),
	};
	return cmocka_run_group_tests_name("s3", tests, NULL, NULL);
}
