// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_host_uart.c - minhv's own console UART (arch/uart.c)
 * behind a scripted LSR: uart_putc() waits for THRE as long as a slow
 * reader holds it clear (writing early overruns the FIFO and loses a
 * byte), not at all on a missing UART (all ones), and only briefly once a
 * wait ran out, until THRE is seen again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/uart.h"
#include "arch/uart_regs.h"
#include "tests/doubles/fake_cpu.h"

#define COM1 UART_COM1_PORT

static u32 lsr_reads, thre_after, other_reads;
static bool absent;

/* LSR reads THRE clear until thre_after of them were made (~0: never). */
static u8 lsr_model(u16 port)
{
	if (port != COM1 + UART_LSR) {
		other_reads++;
		return 0;
	}
	lsr_reads += absent;
	if (absent)
		return 0xff;
	return ++lsr_reads > thre_after ? UART_LSR_THRE | UART_LSR_TEMT : 0;
}

static struct uart com1 = { UART_IO, COM1, 0, 0, false };

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_inb_hook = lsr_model;
	lsr_reads = other_reads = 0;
	thre_after = 0;
	absent = false;
	com1.stuck = false;
	return 0;
}

static void putc_after(u32 clear_reads, char c)
{
	lsr_reads = 0;
	thre_after = clear_reads;
	fake_trace_clear();
	uart_putc(&com1, c);
}

/* THRE clear for twice the old bound of 100000 reads: the byte still waits
 * for it (the old driver wrote after 100000 and overran QEMU's FIFO). */
static void test_waits_for_a_slow_reader(void **s)
{
	(void)s;
	putc_after(200000, 'A');
	assert_int_equal(lsr_reads, 200001);
	assert_non_null(strstr(fake_trace(), "outb 0x3f8 0x41"));
	assert_false(com1.stuck);
	assert_int_equal(other_reads, 0);
}

static void test_ready_at_once(void **s)
{
	(void)s;
	putc_after(0, 'B');
	assert_int_equal(lsr_reads, 1);
	assert_non_null(strstr(fake_trace(), "outb 0x3f8 0x42"));
}

/* Nothing on the bus reads all ones, THRE among them: no wait. */
static void test_missing_uart_no_wait(void **s)
{
	(void)s;
	absent = true;
	fake_trace_clear();
	uart_putc(&com1, 'C');
	assert_int_equal(lsr_reads, 1);
	assert_non_null(strstr(fake_trace(), "outb 0x3f8 0x43"));
	assert_false(com1.stuck);
}

/* THRE never comes: one long wait, then short ones until it is back. */
static void test_stuck_then_brief_then_back(void **s)
{
	(void)s;
	putc_after(~0u, 'D');
	assert_true(com1.stuck);
	assert_true(lsr_reads > 1000000);
	assert_non_null(strstr(fake_trace(), "outb 0x3f8 0x44"));

	putc_after(~0u, 'E');
	assert_true(com1.stuck);
	assert_true(lsr_reads <= 1001);
	assert_non_null(strstr(fake_trace(), "outb 0x3f8 0x45"));

	putc_after(0, 'F');
	assert_false(com1.stuck);

	putc_after(5000, 'G'); /* waiting long again */
	assert_int_equal(lsr_reads, 5001);
	assert_false(com1.stuck);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_waits_for_a_slow_reader, setup),
		cmocka_unit_test_setup(test_ready_at_once, setup),
		cmocka_unit_test_setup(test_missing_uart_no_wait, setup),
		cmocka_unit_test_setup(test_stuck_then_brief_then_back, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
