// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_host_uart.c - minhv's own console UART (arch/uart.c)
 * behind a scripted LSR: uart_putc() waits for THRE as long as a slow
 * reader holds it clear (writing early overruns the FIFO and loses a
 * byte), not at all on a missing UART (all ones), and only briefly once a
 * wait ran out, until THRE is seen again; after THRE a 16550A's FIFO takes
 * 16 bytes without another look, a UART without FIFOs one. */
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
static u8 iir; /* what IIR reads (uart_init()'s FIFO test) */

/* LSR reads THRE clear until thre_after of them were made (~0: never). */
static u8 lsr_model(u16 port)
{
	if (port == COM1 + UART_IIR)
		return iir;
	if (port != COM1 + UART_LSR) {
		other_reads++;
		return 0;
	}
	lsr_reads += absent;
	if (absent)
		return 0xff;
	return ++lsr_reads > thre_after ? UART_LSR_THRE | UART_LSR_TEMT : 0;
}

static struct uart com1;

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_inb_hook = lsr_model;
	lsr_reads = other_reads = 0;
	thre_after = 0;
	absent = false;
	iir = 0;
	com1 = (struct uart){ UART_IO, COM1, 0, 0, false, 0, 0 };
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

static u32 tx_count(void)
{
	u32 n = 0;

	for (const char *t = fake_trace(); (t = strstr(t, "outb 0x3f8 0x5a"));
	     t++)
		n++;
	return n;
}

/* FIFOs on (IIR bits 7:6 set): one LSR read per 16 bytes. */
static void test_fifo_takes_16_per_thre(void **s)
{
	(void)s;
	iir = UART_IIR_FIFO_ENABLED | UART_IIR_NO_INT;
	uart_init(&com1);
	assert_int_equal(com1.fifo, UART_FIFO_SIZE);
	fake_trace_clear();
	for (int i = 0; i < UART_FIFO_SIZE; i++)
		uart_putc(&com1, 'Z');
	assert_int_equal(lsr_reads, 1);
	assert_int_equal(tx_count(), UART_FIFO_SIZE);
	uart_putc(&com1, 'Z'); /* the 17th looks again */
	assert_int_equal(lsr_reads, 2);
	/* THRE clear at the next look: the byte waits for it. */
	lsr_reads = 0;
	thre_after = 3;
	for (int i = 1; i < UART_FIFO_SIZE; i++)
		uart_putc(&com1, 'Z');
	assert_int_equal(lsr_reads, 0);
	uart_putc(&com1, 'Z');
	assert_int_equal(lsr_reads, 4);
}

/* No FIFOs (a 16450: IIR bits 7:6 clear): THRE before every byte. */
static void test_no_fifo_looks_per_byte(void **s)
{
	(void)s;
	iir = UART_IIR_NO_INT;
	uart_init(&com1);
	assert_int_equal(com1.fifo, 1);
	for (int i = 0; i < 3; i++)
		uart_putc(&com1, 'Z');
	assert_int_equal(lsr_reads, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_waits_for_a_slow_reader, setup),
		cmocka_unit_test_setup(test_ready_at_once, setup),
		cmocka_unit_test_setup(test_missing_uart_no_wait, setup),
		cmocka_unit_test_setup(test_stuck_then_brief_then_back, setup),
		cmocka_unit_test_setup(test_fifo_takes_16_per_thre, setup),
		cmocka_unit_test_setup(test_no_fifo_looks_per_byte, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
