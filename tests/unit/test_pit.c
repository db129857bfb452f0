// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_pit.c - the guest's 8254 (hv/platform/pit.c) and HPET
 * (hv/platform/hpet.c), pure, on a TSC of 1.193182 GHz (1000 TSC cycles
 * per PIT tick): modes 0, 2, 3 and 4, LSB/MSB/both access, the counter
 * latch, read-back with status, channel 2's gate and output at port 0x61,
 * channel 0's IRQ schedule; the HPET's counter, its enable bit and its
 * 32-bit halves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/timers.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"
#include "tests/doubles/fake_cpu.h"

#define KHZ 1193182ULL /* 1000 cycles a PIT tick */
#define TICK 1000ULL
#define T0 1000000ULL /* the host TSC when the tests start */

static struct pit8254 t;

/* pit.c's port handlers reach the platform through hv/guest: not here. */
struct platform *vcpu_platform(struct vcpu *v)
{
	(void)v;
	return NULL;
}

static int setup(void **s)
{
	(void)s;
	memset(&t, 0, sizeof(t));
	return 0;
}

static void cmd(u8 v, u64 now)
{
	pit_write(&t, 3, v, now, KHZ);
}

static u16 read16(u32 ch, u64 now)
{
	u16 lo = pit_read(&t, (u16)ch, now, KHZ);

	return (u16)(lo | pit_read(&t, (u16)ch, now, KHZ) << 8);
}

/* channel, access LSB then MSB, mode, count written at now */
static void program(u32 ch, u8 mode, u16 count, u64 now)
{
	cmd((u8)(ch << 6 | 3 << 4 | mode << 1), now);
	pit_write(&t, (u16)ch, (u8)count, now, KHZ);
	pit_write(&t, (u16)ch, (u8)(count >> 8), now, KHZ);
}

static void test_clock_conversions(void **s)
{
	(void)s;
	assert_int_equal(clock_ticks(1000 * TICK, KHZ, PIT_HZ), 1000);
	assert_int_equal(clock_tsc(1000, KHZ, PIT_HZ), 1000 * TICK);
	/* Hours at 3 GHz do not overflow: 10 h at 1 GHz, 1.193 MHz. */
	assert_int_equal(clock_ticks(36000ULL * 1000000000ULL, 1000000, PIT_HZ),
			 36000ULL * PIT_HZ);
	assert_int_equal(clock_ticks(5, 0, PIT_HZ), 0);
}

static void test_mode0_terminal_count(void **s)
{
	u64 next;

	(void)s;
	program(0, 0, 100, T0);
	assert_int_equal(read16(0, T0 + 30 * TICK), 70);
	assert_false(pit_poll(&t, T0 + 99 * TICK, KHZ, &next));
	assert_int_equal(next, T0 + 100 * TICK);
	assert_true(pit_poll(&t, T0 + 100 * TICK, KHZ, &next));
	assert_int_equal(next, 0); /* once per count */
	assert_false(pit_poll(&t, T0 + 500 * TICK, KHZ, &next));
	/* It counts on through 0 and wraps. */
	assert_int_equal(read16(0, T0 + 101 * TICK), 0xffff);
}

static void test_mode2_periodic_irq(void **s)
{
	u64 next;

	(void)s;
	program(0, 2, 1000, T0);
	assert_int_equal(read16(0, T0 + 250 * TICK), 750);
	assert_int_equal(read16(0, T0 + 1250 * TICK), 750); /* reloaded */
	assert_false(pit_poll(&t, T0 + 999 * TICK, KHZ, &next));
	assert_int_equal(next, T0 + 1000 * TICK);
	assert_true(pit_poll(&t, T0 + 1000 * TICK, KHZ, &next));
	assert_int_equal(next, T0 + 2000 * TICK);
	/* Missed periods coalesce into one IRQ. */
	assert_true(pit_poll(&t, T0 + 5500 * TICK, KHZ, &next));
	assert_int_equal(next, T0 + 6000 * TICK);
	assert_false(pit_poll(&t, T0 + 5999 * TICK, KHZ, &next));
	/* A period of 1 is held to 50 us of IRQs (60 ticks). */
	program(0, 2, 1, T0);
	assert_true(pit_poll(&t, T0 + TICK, KHZ, &next));
	assert_int_equal(next, T0 + 60 * TICK);
}

static void test_mode3_square_wave_and_gate(void **s)
{
	(void)s;
	/* Channel 2, gate low: programmed but holding. */
	program(2, 3, 100, T0);
	assert_int_equal(read16(2, T0 + 10 * TICK), 100);
	pit_port61_write(&t, PORT61_GATE2, T0 + 10 * TICK, KHZ);
	/* Mode 3 counts down by two, OUT high for the first half. */
	assert_int_equal(read16(2, T0 + 20 * TICK), 80);
	assert_true(pit_port61_read(&t, T0 + 20 * TICK, KHZ) & PORT61_OUT2);
	assert_false(pit_port61_read(&t, T0 + 70 * TICK, KHZ) & PORT61_OUT2);
	assert_true(pit_port61_read(&t, T0 + 110 * TICK, KHZ) & PORT61_OUT2);
	/* The gate's bits read back; the status bits 7:6 do not stick. */
	assert_int_equal(pit_port61_read(&t, T0, KHZ) & PORT61_WRITABLE,
			 PORT61_GATE2);
}

static void test_mode0_channel2_calibration(void **s)
{
	u64 now = T0;

	(void)s;
	/* Linux's pit_calibrate_tsc(): gate high, speaker off, mode 0, wait
	 * for OUT2 at port 0x61 bit 5. */
	pit_port61_write(&t, PORT61_GATE2, now, KHZ);
	cmd(0xb0, now);
	pit_write(&t, 2, 0x9b, now, KHZ); /* 11931 = 10 ms */
	assert_false(pit_port61_read(&t, now + 5000 * TICK, KHZ) & PORT61_OUT2);
	pit_write(&t, 2, 0x2e, now, KHZ);
	assert_false(pit_port61_read(&t, now + 11930 * TICK, KHZ) &
		     PORT61_OUT2);
	assert_true(pit_port61_read(&t, now + 11931 * TICK, KHZ) & PORT61_OUT2);
	/* Gate low holds the count; high again goes on (mode 0). */
	pit_port61_write(&t, 0, now + 1000 * TICK, KHZ);
	assert_int_equal(read16(2, now + 9000 * TICK), 11931 - 1000);
	pit_port61_write(&t, PORT61_GATE2, now + 9000 * TICK, KHZ);
	assert_int_equal(read16(2, now + 9100 * TICK), 11931 - 1100);
}

static void test_latch_and_readback(void **s)
{
	(void)s;
	program(0, 2, 1000, T0);
	/* The counter latch holds the value until both bytes are read. */
	cmd(0x00, T0 + 100 * TICK);
	assert_int_equal(pit_read(&t, 0, T0 + 300 * TICK, KHZ), 900 & 0xff);
	cmd(0x00, T0 + 400 * TICK); /* ignored: still latched */
	assert_int_equal(pit_read(&t, 0, T0 + 500 * TICK, KHZ), 900 >> 8);
	assert_int_equal(read16(0, T0 + 500 * TICK), 500);
	/* Read-back: status (OUT, access, mode) then the count. */
	cmd(0xc2, T0 + 600 * TICK); /* count and status of channel 0 */
	assert_int_equal(pit_read(&t, 0, T0 + 700 * TICK, KHZ),
			 PIT_STATUS_OUT | 3 << 4 | 2 << 1);
	assert_int_equal(read16(0, T0 + 700 * TICK), 400);
	/* Status only, after a new control word: null count. */
	cmd(0x34, T0);
	cmd(0xe2, T0);
	assert_int_equal(pit_read(&t, 0, T0, KHZ),
			 PIT_STATUS_OUT | PIT_STATUS_NULL_COUNT | 3 << 4 |
				 2 << 1);
	/* LSB-only and MSB-only access. */
	cmd(0x10, T0); /* channel 0, LSB, mode 0 */
	pit_write(&t, 0, 50, T0, KHZ);
	assert_int_equal(pit_read(&t, 0, T0 + 10 * TICK, KHZ), 40);
	cmd(0x24, T0); /* MSB, mode 2 */
	pit_write(&t, 0, 2, T0, KHZ);
	assert_int_equal(pit_read(&t, 0, T0 + 256 * TICK, KHZ), 1);
	assert_int_equal(pit_read(&t, 3, T0, KHZ), 0xff);
}

static void test_mode4_strobe(void **s)
{
	u64 next;

	(void)s;
	program(0, 4, 10, T0);
	assert_false(pit_poll(&t, T0 + 10 * TICK, KHZ, &next));
	assert_int_equal(next, T0 + 11 * TICK);
	assert_true(pit_poll(&t, T0 + 11 * TICK, KHZ, &next));
	assert_false(pit_poll(&t, T0 + 100 * TICK, KHZ, &next));
	/* No count yet, or a channel stopped by its control word: none. */
	cmd(0x30, T0);
	assert_false(pit_poll(&t, T0 + 100000 * TICK, KHZ, &next));
	assert_int_equal(next, 0);
}

/* ---- HPET ---- */

#define HKHZ 1000000ULL /* 1 GHz TSC: 10 cycles a 100 MHz tick */

static u64 hrd(struct vhpet *h, u64 off, unsigned size)
{
	u64 v;

	assert_int_equal(hpet_mmio_ops.read(h, off, size, &v), 0);
	return v;
}

static void test_hpet_counter(void **s)
{
	struct vhpet h;
	u64 cap;

	(void)s;
	hpet_reset(&h, HKHZ);
	cap = hrd(&h, HPET_REG_CAP, 8);
	assert_int_equal(cap >> HPET_CAP_PERIOD_SHIFT, 10000000); /* 10 ns */
	assert_int_equal((cap >> HPET_CAP_NUM_TIM_SHIFT) & 0x1f, 2);
	assert_true(cap & HPET_CAP_COUNT_SIZE);
	assert_int_equal(hrd(&h, HPET_REG_CAP + 4, 4), 10000000);
	/* Halted at reset: the counter holds. */
	fake_tsc_set(0, 0);
	assert_int_equal(hrd(&h, HPET_REG_COUNTER, 8), 0);
	fake_tsc_set(1000, 0);
	assert_int_equal(hrd(&h, HPET_REG_COUNTER, 8), 0);
	/* Enabled: 100 per microsecond. */
	hpet_mmio_ops.write(&h, HPET_REG_CONFIG, 4, HPET_CONF_ENABLE);
	fake_tsc_set(1000 + 10000, 0);
	assert_int_equal(hrd(&h, HPET_REG_COUNTER, 8), 1000);
	assert_int_equal(hrd(&h, HPET_REG_COUNTER, 4), 1000);
	/* Halted again: it keeps its count; written while halted. */
	hpet_mmio_ops.write(&h, HPET_REG_CONFIG, 4, 0);
	fake_tsc_set(100000, 0);
	assert_int_equal(hrd(&h, HPET_REG_COUNTER, 8), 1000);
	hpet_mmio_ops.write(&h, HPET_REG_COUNTER + 4, 4, 1);
	assert_int_equal(hrd(&h, HPET_REG_COUNTER, 8), (1ULL << 32) | 1000);
	/* No legacy replacement; the timers' registers read back. */
	hpet_mmio_ops.write(&h, HPET_REG_CONFIG, 8, 3);
	assert_int_equal(hrd(&h, HPET_REG_CONFIG, 8), HPET_CONF_ENABLE);
	hpet_mmio_ops.write(&h, HPET_REG_TN_CMP(1), 8, 0x123456789ULL);
	assert_int_equal(hrd(&h, HPET_REG_TN_CMP(1), 8), 0x123456789ULL);
	assert_int_equal(hrd(&h, HPET_REG_TN_CONF(2), 8), HPET_TN_SIZE_CAP);
	assert_int_equal(hrd(&h, HPET_REG_ISR, 8), 0);
}

#define T(f) cmocka_unit_test_setup(f, setup)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_clock_conversions),
		T(test_mode0_terminal_count),
		T(test_mode2_periodic_irq),
		T(test_mode3_square_wave_and_gate),
		T(test_mode0_channel2_calibration),
		T(test_latch_and_readback),
		T(test_mode4_strobe),
		T(test_hpet_counter),
	};
	return cmocka_run_group_tests_name("pit", tests, NULL, NULL);
}
