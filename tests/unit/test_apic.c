// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_apic.c - the two APIC back ends (arch/apic*.c) against
 * fake MSRs and a fake MMIO page: mode switch, fenced vs plain ICR writes,
 * xAPIC ICR order and delivery-status wait, LVT setup, one-shot timer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apic.h"
#include "arch/errno.h"
#include "arch/msr.h"
#include "tests/doubles/fake_cpu.h"

static u32 mmio[1024] __attribute__((aligned(4096)));

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	memset(mmio, 0, sizeof(mmio));
	fake_msr_define(MSR_APIC_BASE,
			APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_BSP);
	/* the x2APIC registers minhv touches (fake MSRs are limited) */
	for (u32 reg = 0x20; reg <= 0x3f0; reg += 0x10)
		fake_msr_define(X2APIC_MSR(reg), 0);
	fake_msr_define(X2APIC_MSR(APIC_REG_ID), 0x1234);
	mmio[APIC_REG_ID / 4] = 0x12000000;
	apic_select(false, ptr_to_hpa(mmio));
	return 0;
}

static void test_x2apic_enable_from_xapic_and_disabled(void **s)
{
	(void)s;
	apic_select(true, hpa(0));
	g_apic->enable();
	assert_int_equal(fake_msr_read(0, MSR_APIC_BASE),
			 APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD |
				 APIC_BASE_BSP);
	assert_int_equal(fake_trace_count("wrmsr 0x1b"), 1);

	/* already in x2APIC mode: no write */
	fake_trace_clear();
	g_apic->enable();
	assert_int_equal(fake_trace_count("wrmsr 0x1b"), 0);

	/* disabled: EN first, then EN|EXTD (never EXTD without EN) */
	fake_cpu_select(1);
	fake_trace_clear();
	fake_msr_define(MSR_APIC_BASE, APIC_DEFAULT_BASE);
	g_apic->enable();
	assert_int_equal(fake_trace_find("wrmsr 0x1b 0xfee00800"), 0);
	assert_int_equal(fake_trace_find("wrmsr 0x1b 0xfee00c00"), 1);
	assert_int_equal(apic_id(), 0x1234);
}

static void test_x2apic_send_plain_has_no_fence(void **s)
{
	struct apic_icr r = apic_icr_fixed(300, 0xf1);

	(void)s;
	apic_select(true, hpa(0));
	apic_set_fence(false);
	assert_false(g_apic->fenced);
	fake_trace_clear();
	assert_int_equal(apic_send(&r), 0);
	apic_self_ipi(0xf3);
	assert_int_equal(fake_cpus[0].mfence_count, 0);
	assert_int_equal(fake_cpus[0].lfence_count, 0);
	assert_int_equal(fake_trace_find("wrmsr 0x830 0x12c000040f1"), 0);
	assert_int_equal(fake_trace_find("wrmsr 0x83f 0xf3"), 1);
}

static void test_x2apic_send_fenced(void **s)
{
	struct apic_icr r = apic_icr_nmi(2);

	(void)s;
	apic_select(true, hpa(0));
	apic_set_fence(true);
	assert_true(g_apic->fenced);
	fake_trace_clear();
	assert_int_equal(apic_send(&r), 0);
	/* MFENCE, then LFENCE, then the ICR write */
	assert_int_equal(fake_trace_find("mfence"), 0);
	assert_int_equal(fake_trace_find("lfence"), 1);
	assert_int_equal(fake_trace_find("wrmsr 0x830 0x200004400"), 2);
	apic_self_ipi(0xf3);
	assert_int_equal(fake_cpus[0].mfence_count, 2);
	assert_int_equal(fake_trace_find("wrmsr 0x83f 0xf3"), 5);
	/* EOI is not fenced */
	apic_eoi();
	assert_int_equal(fake_cpus[0].mfence_count, 2);
	assert_int_equal(fake_msr_read(0, 0x80b), 0);
	assert_true(fake_trace_find("wrmsr 0x80b 0") > 5);
	/* and back */
	apic_set_fence(false);
	assert_false(g_apic->fenced);
}

static void test_x2apic_bad_request_not_sent(void **s)
{
	struct apic_icr r = apic_icr_fixed(1, 3);

	(void)s;
	apic_select(true, hpa(0));
	fake_trace_clear();
	assert_int_equal(apic_send(&r), -EINVAL);
	assert_int_equal(fake_trace_count("wrmsr 0x830"), 0);
}

static void test_xapic_send_order_and_fence_ignored(void **s)
{
	struct apic_icr r = apic_icr_fixed(0x12, 0xf1);

	(void)s;
	apic_set_fence(true); /* no effect in xAPIC mode */
	assert_ptr_equal(g_apic, &apic_xapic_ops);
	fake_trace_clear();
	assert_int_equal(apic_send(&r), 0);
	assert_int_equal(fake_cpus[0].mfence_count, 0);
	/* high word first; the low write sends */
	assert_true(fake_trace_find(" 0x12000000") <
		    fake_trace_find(" 0x40f1"));
	assert_int_equal(mmio[APIC_REG_ICR_HI / 4], 0x12000000);
	assert_int_equal(mmio[APIC_REG_ICR_LO / 4], 0x40f1);
	assert_int_equal(apic_id(), 0x12);
}

static void test_xapic_waits_for_delivery_status(void **s)
{
	struct apic_icr r = apic_icr_fixed(1, 0xf1);

	(void)s;
	mmio[APIC_REG_ICR_LO / 4] = ICR_DELIVERY_PENDING; /* stuck busy */
	fake_trace_clear();
	assert_int_equal(apic_send(&r), -ETIMEDOUT);
	assert_int_equal(fake_trace_count("mmio"), 0);
	/* interrupts were on: back on afterwards */
	fake_cpus[0].irq_enabled = true;
	assert_int_equal(apic_send(&r), -ETIMEDOUT);
	assert_true(fake_cpus[0].irq_enabled);
}

static void test_xapic_refuses_high_ids(void **s)
{
	struct apic_icr r = apic_icr_sipi(256, 8);

	(void)s;
	fake_trace_clear();
	assert_int_equal(apic_send(&r), -ERANGE);
	assert_int_equal(fake_trace_count("mmio"), 0);
}

static void test_cpu_init_masks_lvts(void **s)
{
	(void)s;
	apic_select(true, hpa(0));
	fake_msr_define(X2APIC_MSR(APIC_REG_LVT_LINT1), 0x400); /* NMI */
	apic_cpu_init(0xff, true);
	assert_int_equal(fake_msr_read(0, 0x80f), 0x1ff); /* SVR */
	assert_int_equal(fake_msr_read(0, 0x808), 0); /* TPR */
	assert_int_equal(fake_msr_read(0, 0x835), APIC_LVT_MASKED);
	assert_int_equal(fake_msr_read(0, 0x836), 0x400); /* BSP keeps NMI */
	assert_int_equal(fake_msr_read(0, 0x832), APIC_LVT_MASKED);
	/* SVR (software enable) is written last */
	assert_true(fake_trace_find("wrmsr 0x80f") >
		    fake_trace_find("wrmsr 0x835"));
	fake_cpu_select(2);
	apic_cpu_init(0xff, false);
	assert_int_equal(fake_msr_read(2, 0x836), APIC_LVT_MASKED);
}

static void test_timer_oneshot(void **s)
{
	(void)s;
	apic_select(true, hpa(0));
	fake_trace_clear();
	apic_timer_oneshot(0xf0, 123456, APIC_TIMER_DIV_1);
	assert_int_equal(fake_trace_find("wrmsr 0x83e 0xb"), 0);
	assert_int_equal(fake_trace_find("wrmsr 0x832 0xf0"), 1);
	assert_int_equal(fake_trace_find("wrmsr 0x838 0x1e240"), 2);
	apic_timer_stop();
	assert_int_equal(fake_msr_read(0, 0x832), APIC_LVT_MASKED);
	assert_int_equal(fake_msr_read(0, 0x838), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
			test_x2apic_enable_from_xapic_and_disabled, setup),
		cmocka_unit_test_setup(test_x2apic_send_plain_has_no_fence,
				       setup),
		cmocka_unit_test_setup(test_x2apic_send_fenced, setup),
		cmocka_unit_test_setup(test_x2apic_bad_request_not_sent, setup),
		cmocka_unit_test_setup(test_xapic_send_order_and_fence_ignored,
				       setup),
		cmocka_unit_test_setup(test_xapic_waits_for_delivery_status,
				       setup),
		cmocka_unit_test_setup(test_xapic_refuses_high_ids, setup),
		cmocka_unit_test_setup(test_cpu_init_masks_lvts, setup),
		cmocka_unit_test_setup(test_timer_oneshot, setup),
	};

	return cmocka_run_group_tests_name("apic", tests, NULL, NULL);
}
