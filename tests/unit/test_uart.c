// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_uart.c - the guest's 16550A (hv/platform/uart.c): the
 * pure model (IER/IIR/LSR, the THRE interrupt and Linux's test of it, the
 * receive FIFO and its overrun, priorities, OUT2, loopback, DLAB), and on
 * the exit-handler fixture its port I/O: a console line written by two
 * vCPUs comes out whole, IRQ 4 reaches a vLAPIC through the I/O APIC, and
 * platform_poll() feeds what is typed on the console to the receiver;
 * the run loop's fast path (uart_fast()) takes what moves no IRQ line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "arch/ioapic.h"
#include "arch/uart_regs.h"
#include "hv/platform/platform.h"
#include "hv/svm/exit.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/exits_fixture.h"
#include "tests/unit/svm_fixture.h"

#define KHZ 1000000ULL
#define IIR_ID(u) (uart_iir(u) & 0x0f)

static void test_thre_interrupt(void **s)
{
	struct uart16550 u;

	(void)s;
	uart_reset(&u);
	assert_int_equal(uart_iir(&u), UART_IIR_NO_INT);
	assert_int_equal(uart_read(&u, UART_LSR, 0),
			 UART_LSR_THRE | UART_LSR_TEMT);
	/* Enabling THRI with THR empty raises it; OUT2 gates the pin. */
	uart_write(&u, UART_IER, UART_IER_THRI, 0);
	assert_int_equal(IIR_ID(&u), UART_IIR_THRI);
	assert_false(uart_irq(&u));
	uart_write(&u, UART_MCR, UART_MCR_OUT2, 0);
	assert_true(uart_irq(&u));
	/* Reading IIR while it shows THRE clears it. */
	assert_int_equal(uart_read(&u, UART_IIR, 0), UART_IIR_THRI);
	assert_int_equal(uart_read(&u, UART_IIR, 0), UART_IIR_NO_INT);
	assert_false(uart_irq(&u));
	/* A byte sent: THR is empty again at once and LSR says so; the
	 * interrupt is owed until the writer looks again (or stops). */
	assert_int_equal(uart_write(&u, UART_TX, 'x', 0), 'x');
	assert_false(uart_irq(&u));
	assert_true(u.thre_due);
	assert_int_equal(uart_read(&u, UART_LSR, 0),
			 UART_LSR_THRE | UART_LSR_TEMT);
	assert_true(uart_irq(&u));
	/* Linux's startup test: IER 0, then THRI again re-asserts it. */
	uart_write(&u, UART_IER, 0, 0);
	assert_false(uart_irq(&u));
	uart_read(&u, UART_IIR, 0);
	uart_write(&u, UART_IER, UART_IER_THRI, 0);
	assert_int_equal(uart_read(&u, UART_IIR, 0), UART_IIR_THRI);
}

static void test_rx_fifo_and_priorities(void **s)
{
	struct uart16550 u;

	(void)s;
	uart_reset(&u);
	/* Without the FIFOs (16450 mode) the receiver holds one byte. */
	assert_true(uart_rx_room(&u));
	assert_int_equal(uart_rx_push(&u, 'a'), 0);
	assert_false(uart_rx_room(&u));
	assert_int_equal(uart_rx_push(&u, 'b'), -ENOSPC);
	assert_int_equal(uart_read(&u, UART_LSR, 0) &
				 (UART_LSR_DR | UART_LSR_OE),
			 UART_LSR_DR | UART_LSR_OE);
	assert_int_equal(uart_read(&u, UART_LSR, 0) & UART_LSR_OE, 0);
	assert_int_equal(uart_read(&u, UART_RX, 0), 'a');
	/* FIFOs on: IIR says so, 16 bytes fit, the 17th overruns. */
	uart_write(&u, UART_FCR, UART_FCR_ENABLE_FIFO | 0xc0, 0);
	assert_int_equal(uart_iir(&u), UART_IIR_FIFO_ENABLED | UART_IIR_NO_INT);
	for (int i = 0; i < UART_FIFO_SIZE; i++)
		assert_int_equal(uart_rx_push(&u, (u8)('A' + i)), 0);
	assert_int_equal(uart_rx_push(&u, '!'), -ENOSPC);
	/* Line status before data before THRE. */
	uart_write(&u, UART_IER, UART_IER_RDI | UART_IER_THRI | UART_IER_RLSI,
		   0);
	assert_int_equal(IIR_ID(&u), UART_IIR_RLSI);
	uart_read(&u, UART_LSR, 0);
	assert_int_equal(IIR_ID(&u), UART_IIR_RDI);
	for (int i = 0; i < UART_FIFO_SIZE; i++)
		assert_int_equal(uart_read(&u, UART_RX, 0), 'A' + i);
	assert_int_equal(uart_read(&u, UART_LSR, 0) & UART_LSR_DR, 0);
	assert_int_equal(uart_read(&u, UART_RX, 0), 0);
	assert_int_equal(IIR_ID(&u), UART_IIR_THRI);
	/* FCR's receiver reset empties the FIFO. */
	uart_rx_push(&u, 'z');
	uart_write(&u, UART_FCR, UART_FCR_ENABLE_FIFO | UART_FCR_CLEAR_RCVR, 0);
	assert_int_equal(uart_read(&u, UART_LSR, 0) & UART_LSR_DR, 0);
}

static void test_dlab_scratch_loopback(void **s)
{
	struct uart16550 u;

	(void)s;
	uart_reset(&u);
	uart_write(&u, UART_LCR, UART_LCR_DLAB, 0);
	uart_write(&u, UART_DLL, 1, 0);
	uart_write(&u, UART_DLM, 2, 0);
	assert_int_equal(uart_read(&u, UART_DLL, 0), 1);
	assert_int_equal(uart_read(&u, UART_DLM, 0), 2);
	uart_write(&u, UART_LCR, UART_LCR_WLEN8, 0);
	assert_int_equal(uart_read(&u, UART_IER, 0), 0);
	uart_write(&u, UART_SCR, 0x5a, 0);
	assert_int_equal(uart_read(&u, UART_SCR, 0), 0x5a);
	/* A terminal is always there (as QEMU's). */
	assert_int_equal(uart_read(&u, UART_MSR, 0),
			 UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS);
	/* Loopback: what is sent is received, MCR shows in MSR. */
	uart_write(&u, UART_MCR, UART_MCR_LOOP | UART_MCR_RTS | UART_MCR_OUT2,
		   0);
	assert_int_equal(uart_read(&u, UART_MSR, 0),
			 UART_MSR_CTS | UART_MSR_DCD);
	assert_int_equal(uart_write(&u, UART_TX, 'q', 0), -ENOENT);
	assert_int_equal(uart_read(&u, UART_RX, 0), 'q');
}

/* guest_console_rate paces the transmitter: over the rate THRE and TEMT
 * stay clear and the THRE interrupt waits until the line has drained;
 * every byte written is still returned (sent), none dropped. */
static void test_tx_rate_backpressure(void **s)
{
	const u64 byte = KHZ * 1000 / 100; /* 100 B/s on a 1 GHz TSC */
	struct uart16550 u;

	(void)s;
	uart_reset(&u);
	uart_set_rate(&u, 100, KHZ, 0);
	uart_write(&u, UART_MCR, UART_MCR_OUT2, 0);
	uart_write(&u, UART_IER, UART_IER_THRI, 0);
	/* One second's worth goes at once, THRE after each byte (owed,
	 * then shown by the next IIR read). */
	for (int i = 0; i < 100; i++) {
		assert_int_equal(uart_read(&u, UART_IIR, 0), UART_IIR_THRI);
		assert_int_equal(uart_write(&u, UART_TX, (u8)i, 0), i);
		assert_true(u.thre_due);
	}
	assert_int_equal(uart_tx_poll(&u, 0), 0);
	/* The 101st is sent too, and the transmitter is busy. */
	uart_read(&u, UART_IIR, 0);
	assert_int_equal(uart_write(&u, UART_TX, 'z', 0), 'z');
	assert_int_equal(uart_read(&u, UART_LSR, 0) &
				 (UART_LSR_THRE | UART_LSR_TEMT),
			 0);
	assert_int_equal(IIR_ID(&u), UART_IIR_NO_INT);
	assert_false(uart_irq(&u));
	/* Re-enabling THRI while busy raises nothing: THR is not empty. */
	uart_write(&u, UART_IER, 0, 0);
	uart_write(&u, UART_IER, UART_IER_THRI, 0);
	assert_false(uart_irq(&u));
	/* The poll knows when the line drains, and not before. */
	assert_int_equal(uart_tx_poll(&u, byte - 1), byte);
	assert_false(uart_irq(&u));
	assert_int_equal(uart_tx_poll(&u, byte), 0);
	assert_true(uart_irq(&u));
	assert_int_equal(uart_read(&u, UART_LSR, byte),
			 UART_LSR_THRE | UART_LSR_TEMT);
	assert_int_equal(uart_read(&u, UART_IIR, byte), UART_IIR_THRI);
	/* Nothing banked: the next byte is busy again at once; a writer
	 * that ignores THRE fills the 16-byte FIFO, then waits a byte's
	 * time for each further byte. */
	for (int i = 0; i < UART_FIFO_SIZE; i++) {
		assert_int_equal(uart_write(&u, UART_TX, 'a', byte), 'a');
		assert_int_equal(uart_tx_stall(&u, byte), 0);
	}
	assert_int_equal(uart_write(&u, UART_TX, 'b', byte), 'b');
	assert_int_equal(uart_tx_stall(&u, byte), byte);
	/* An idle line banks at most a second's worth. */
	assert_int_equal(uart_tx_poll(&u, 100 * byte), 0);
	uart_read(&u, UART_IIR, 100 * byte);
	for (int i = 0; i < 100; i++)
		uart_write(&u, UART_TX, 'c', 1000 * byte);
	assert_true(uart_read(&u, UART_LSR, 1000 * byte) & UART_LSR_THRE);
	uart_write(&u, UART_TX, 'd', 1000 * byte);
	assert_false(uart_read(&u, UART_LSR, 1000 * byte) & UART_LSR_THRE);
}

/* ---- through port I/O (the exit-handler fixture) ---- */

static void io(struct vcpu *v, u16 port, unsigned sz, bool in, u32 val)
{
	fx_exit(v, VMEXIT_IOIO, IO(port, sz, in), FX_RIP + 1);
	v->vmcb->save.rax = val;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
}

static void platform_on(void)
{
	fx_g->kind = GUEST_LINUX;
	fx_g->plat = (struct platform){ .nr_cpus = FX_VCPUS, .tsc_khz = KHZ };
	fx_g->plat.lapic_bus = (struct vlapic_bus){
		.at = NULL, .notify = NULL, .ctx = fx_g, .n = 0, .eoi = NULL
	};
	platform_reset(&fx_g->plat);
}

static void puts_from(struct vcpu *v, const char *s)
{
	for (; *s; s++)
		io(v, UART_COM1_PORT, 1, false, (u8)*s);
}

static void test_console_line_whole(void **s)
{
	(void)s;
	platform_on();
	puts_from(fx_v[0], "hel");
	assert_false(fake_console_has("hel"));
	puts_from(fx_v[1], "lo\r\n"); /* another vCPU ends the line */
	assert_true(fake_console_has("[tg] hello\n"));
	puts_from(fx_v[2], "\x1b[6n\n");
	assert_true(fake_console_has("[tg] ?[6n\n"));
	/* A prompt shows after a second without its newline. */
	fake_tsc_set(1000, 0);
	puts_from(fx_v[0], "# ");
	io(fx_v[0], UART_COM1_PORT + UART_IER, 1, false, UART_IER_RDI);
	platform_poll(fx_v[0], 1000 + UART_LINE_IDLE_MS * KHZ - 1);
	assert_false(fake_console_has("[tg] # \n"));
	platform_poll(fx_v[0], 1000 + UART_LINE_IDLE_MS * KHZ);
	assert_true(fake_console_has("[tg] # \n"));
}

static struct vlapic *bus_at(void *ctx, u32 i)
{
	(void)ctx;
	return &fx_v[i]->lapic;
}

static void test_irq4_through_ioapic(void **s)
{
	struct vioapic *ioa = &fx_g->plat.ioapic;

	(void)s;
	platform_on();
	fx_g->plat.lapic_bus = (struct vlapic_bus){
		.at = bus_at, .notify = NULL, .ctx = fx_g, .n = 1, .eoi = NULL
	};
	fx_platform(fx_v[0]);
	fx_v[0]->lapic.bus = &fx_g->plat.lapic_bus;
	assert_int_equal(vlapic_reg_write(&fx_v[0]->lapic, 0xf0, 0x1ff), 0);
	/* GSI 4, edge, vector 0x24, to APIC ID 0. */
	ioa->rte[UART_COM1_IRQ] = 0x24;
	io(fx_v[0], UART_COM1_PORT + UART_IER, 1, false, UART_IER_THRI);
	assert_false(fx_v[0]->lapic.irr[1] & BIT(4)); /* OUT2 still clear */
	io(fx_v[0], UART_COM1_PORT + UART_MCR, 1, false, UART_MCR_OUT2);
	assert_true(fx_v[0]->lapic.irr[1] & BIT(4));
	assert_true(ioa->level & BIT(UART_COM1_IRQ));
	/* The driver reads IIR: THRE taken, the line drops. */
	io(fx_v[0], UART_COM1_PORT + UART_IIR, 1, true, 0);
	assert_int_equal(fx_v[0]->vmcb->save.rax & 0xff, UART_IIR_THRI);
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
}

static void test_input_polled(void **s)
{
	struct uart16550 *u = &fx_g->plat.uart;

	(void)s;
	platform_on();
	fake_console_input("ls\n");
	/* No receive interrupt enabled: nothing is polled. */
	assert_int_equal(platform_poll(fx_v[0], 5000), 0);
	assert_int_equal(u->rx_n, 0);
	io(fx_v[0], UART_COM1_PORT + UART_IER, 1, false, UART_IER_RDI);
	assert_int_equal(fx_g->plat.poll_at, 1); /* poll soon */
	/* 16450 mode: one byte; the rest waits on the console. */
	assert_int_equal(platform_poll(fx_v[0], 5000),
			 5000 + PLATFORM_POLL_MS * KHZ);
	assert_int_equal(u->rx_n, 1);
	io(fx_v[0], UART_COM1_PORT + UART_FCR, 1, false, UART_FCR_ENABLE_FIFO);
	platform_poll(fx_v[0], 6000);
	assert_int_equal(u->rx_n, 2); /* 'l' was dropped with the FIFO */
	io(fx_v[0], UART_COM1_PORT, 1, true, 0);
	assert_int_equal(fx_v[0]->vmcb->save.rax & 0xff, 's');
	io(fx_v[0], UART_COM1_PORT, 1, true, 0);
	assert_int_equal(fx_v[0]->vmcb->save.rax & 0xff, '\n');
}

/* Over the rate through port I/O: every byte reaches the console, IRQ 4
 * stays low while the transmitter is busy and platform_poll() schedules
 * and raises it when the line has drained. */
static void test_tx_rate_polled(void **s)
{
	const u64 byte = KHZ * 1000 / 8; /* 8 B/s */
	struct platform *p = &fx_g->plat;
	struct vioapic *ioa = &p->ioapic;

	(void)s;
	fake_tsc_set(1000, 0);
	fx_g->kind = GUEST_LINUX;
	/* The guest's own budget (HC_CONSOLE_WRITE's) drops nothing here. */
	fx_g->con_rate = 8;
	fx_g->con_budget = 8;
	*p = (struct platform){ .nr_cpus = FX_VCPUS,
				.tsc_khz = KHZ,
				.console_rate = 8 };
	p->lapic_bus = (struct vlapic_bus){
		.at = bus_at, .notify = NULL, .ctx = fx_g, .n = 1, .eoi = NULL
	};
	platform_reset(p);
	fx_platform(fx_v[0]);
	fx_v[0]->lapic.bus = &p->lapic_bus;
	assert_int_equal(vlapic_reg_write(&fx_v[0]->lapic, 0xf0, 0x1ff), 0);
	ioa->rte[UART_COM1_IRQ] = 0x24;
	io(fx_v[0], UART_COM1_PORT + UART_MCR, 1, false, UART_MCR_OUT2);
	io(fx_v[0], UART_COM1_PORT + UART_IER, 1, false, UART_IER_THRI);
	assert_true(ioa->level & BIT(UART_COM1_IRQ));
	p->poll_at = 0;
	puts_from(fx_v[0], "12345678"); /* the bank: owed, not raised */
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
	assert_true(p->uart.thre_due);
	assert_int_equal(p->poll_at, 0);
	puts_from(fx_v[0], "9\n"); /* over it: busy, a poll asked for */
	assert_true(fake_console_has("[tg] 123456789\n"));
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
	assert_int_equal(p->poll_at, 1);
	/* Two bytes over: the line is idle two byte times on. */
	assert_int_equal(platform_poll(fx_v[0], 1000), 1000 + 2 * byte);
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
	platform_poll(fx_v[0], 1000 + 2 * byte);
	assert_true(ioa->level & BIT(UART_COM1_IRQ));
	io(fx_v[0], UART_COM1_PORT + UART_LSR, 1, true, 0);
	assert_int_equal(fx_v[0]->vmcb->save.rax & 0xff,
			 UART_LSR_THRE | UART_LSR_TEMT);
}

/* Linux's 8250 handler as it runs when another vCPU keeps its buffer
 * full: IIR (THRI), LSR, a FIFO load of 16 bytes, IIR again. The IIR
 * read still shows THRE, but no edge reaches the vLAPIC while the
 * handler loops, so its IRET finds nothing pending (the soft lockup of
 * issue 25's smp stage); the owed interrupt comes on the writer's HLT,
 * or at a tick after one that found the UART untouched, on the writer
 * only. */
static void test_thre_owed_until_writer_stops(void **s)
{
	struct platform *p = &fx_g->plat;
	struct vioapic *ioa = &p->ioapic;
	u32 *irr = &fx_v[1]->lapic.irr[1];

	(void)s;
	platform_on();
	p->lapic_bus = (struct vlapic_bus){
		.at = bus_at, .notify = NULL, .ctx = fx_g, .n = 2, .eoi = NULL
	};
	for (int i = 0; i < 2; i++) {
		fx_platform(fx_v[i]);
		fx_v[i]->lapic.bus = &p->lapic_bus;
		assert_int_equal(vlapic_reg_write(&fx_v[i]->lapic, 0xf0, 0x1ff),
				 0);
	}
	ioa->rte[UART_COM1_IRQ] = 0x24 | (1ULL << 56); /* to APIC ID 1 */
	io(fx_v[1], UART_COM1_PORT + UART_FCR, 1, false, UART_FCR_ENABLE_FIFO);
	io(fx_v[1], UART_COM1_PORT + UART_MCR, 1, false, UART_MCR_OUT2);
	io(fx_v[1], UART_COM1_PORT + UART_IER, 1, false, UART_IER_THRI);
	assert_true(*irr & BIT(4));
	*irr &= ~BIT(4); /* taken */
	for (int pass = 0; pass < 3; pass++) {
		io(fx_v[1], UART_COM1_PORT + UART_IIR, 1, true, 0);
		assert_int_equal(fx_v[1]->vmcb->save.rax & 0xff,
				 UART_IIR_THRI | UART_IIR_FIFO_ENABLED);
		io(fx_v[1], UART_COM1_PORT + UART_LSR, 1, true, 0);
		for (int i = 0; i < UART_FIFO_SIZE; i++)
			io(fx_v[1], UART_COM1_PORT, 1, false, 'a' + pass);
	}
	assert_false(*irr & BIT(4));
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
	assert_true(p->uart.thre_due);
	assert_int_equal(p->tx_vcpu, 1);
	/* Not the writer: nothing. The writer's first tick finds the UART
	 * touched since the last look; the next one raises it. */
	platform_thre_tick(fx_v[0], true);
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
	platform_thre_tick(fx_v[1], false);
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
	platform_thre_tick(fx_v[1], false);
	assert_true(ioa->level & BIT(UART_COM1_IRQ));
	assert_true(*irr & BIT(4));
	/* The next load, then HLT: raised at once. */
	*irr &= ~BIT(4);
	io(fx_v[1], UART_COM1_PORT + UART_IIR, 1, true, 0);
	io(fx_v[1], UART_COM1_PORT, 1, false, 'z');
	assert_false(ioa->level & BIT(UART_COM1_IRQ));
	platform_thre_tick(fx_v[1], true);
	assert_true(*irr & BIT(4));
}

/* ---- the run loop's fast path (uart_fast(), hv/svm/exit_io.h) ---- */
/* AL in and out, as the run loop passes the guest's RAX. */
static bool fast(struct vcpu *v, u16 off, bool in, u8 *val)
{
	u64 rax = 0xa5a5a5a5a5a5a500ULL | *val;
	bool ok = uart_fast(&fx_g->plat, vcpu_id(v), off, in, &rax);

	assert_int_equal(rax >> 8, 0xa5a5a5a5a5a5a5ULL); /* AL alone */
	*val = (u8)rax;
	return ok;
}

static bool irq4(void)
{
	return fx_g->plat.ioapic.level & BIT(UART_COM1_IRQ);
}

/* uart_fast() says no to val and changes nothing. */
static void refused_val(struct vcpu *v, u16 off, bool in, u8 val)
{
	struct uart16550 before = fx_g->plat.uart;
	u8 v0 = val;

	assert_false(fast(v, off, in, &val));
	assert_int_equal(val, v0);
	assert_memory_equal(&before, &fx_g->plat.uart, sizeof(before));
}

static void refused(struct vcpu *v, u16 off, bool in)
{
	refused_val(v, off, in, 'r');
}

/* Linux's 8250 handler, a FIFO load at a time, done whole by uart_fast():
 * IIR, LSR, MSR, 16 bytes to THR, IIR again showing the THRE the bytes
 * owed at once. IRQ 4 never moves, so the fast path takes them all; the
 * first IIR, which takes a raised THRE down, it leaves to uart_in(). */
static void test_fast_8250_load(void **s)
{
	struct platform *p = &fx_g->plat;
	u8 val = 0;

	(void)s;
	platform_on();
	io(fx_v[1], UART_COM1_PORT + UART_FCR, 1, false, UART_FCR_ENABLE_FIFO);
	io(fx_v[1], UART_COM1_PORT + UART_MCR, 1, false, UART_MCR_OUT2);
	io(fx_v[1], UART_COM1_PORT + UART_IER, 1, false, UART_IER_THRI);
	assert_true(irq4());
	/* THR and IIR would lower it: left to the general path. */
	refused(fx_v[1], UART_TX, false);
	refused(fx_v[1], UART_IIR, true);
	io(fx_v[1], UART_COM1_PORT + UART_IIR, 1, true, 0);
	assert_false(irq4());
	assert_true(fast(fx_v[1], UART_LSR, true, &val));
	assert_int_equal(val, UART_LSR_THRE | UART_LSR_TEMT);
	assert_true(fast(fx_v[1], UART_MSR, true, &val));
	assert_int_equal(val, UART_MSR_DCD | UART_MSR_DSR | UART_MSR_CTS);
	for (int i = 0; i < UART_FIFO_SIZE; i++) {
		val = 'f';
		assert_true(fast(fx_v[1], UART_TX, false, &val));
	}
	assert_true(p->uart.thre_due);
	assert_int_equal(p->tx_vcpu, 1);
	assert_true(p->uart.touched);
	/* LSR would raise the owed THRE: not here. IIR raises and shows
	 * it in one look: the line never moves. */
	assert_false(fast(fx_v[1], UART_LSR, true, &val));
	assert_true(fast(fx_v[1], UART_IIR, true, &val));
	assert_int_equal(val, UART_IIR_THRI | UART_IIR_FIFO_ENABLED);
	assert_false(p->uart.thre_due || p->uart.thr_ipending);
	assert_false(irq4());
	/* The line's end is uart_out()'s: it writes the line. */
	assert_false(fake_console_has("[tg] ffffffffffffffff\n"));
	refused_val(fx_v[1], UART_TX, false, '\n');
	io(fx_v[1], UART_COM1_PORT, 1, false, '\n');
	assert_true(fake_console_has("[tg] ffffffffffffffff\n"));
}

/* What the fast path leaves to uart_in()/uart_out(), untouched: DLAB,
 * loopback, any other register, errors LSR would clear, a lock another
 * vCPU holds, a full console line, a level-triggered IRQ 4, a byte over
 * the bank (busy: a poll, a stall) and a busy transmitter. */
static void test_fast_refuses(void **s)
{
	struct platform *p = &fx_g->plat;
	u8 val = 'x';

	(void)s;
	platform_on();
	io(fx_v[0], UART_COM1_PORT + UART_LCR, 1, false, UART_LCR_DLAB);
	refused(fx_v[0], UART_TX, false);
	refused(fx_v[0], UART_LSR, true);
	io(fx_v[0], UART_COM1_PORT + UART_LCR, 1, false, 0);
	p->uart.lsr_err = UART_LSR_OE; /* LSR would clear it */
	refused(fx_v[0], UART_LSR, true);
	p->uart.lsr_err = 0;
	spin_lock(&p->lock); /* another vCPU's access: no wait here */
	refused(fx_v[0], UART_LSR, true);
	spin_unlock(&p->lock);
	p->uart.line_len = UART_LINE_MAX - 1; /* the byte that fills it */
	refused(fx_v[0], UART_TX, false);
	p->uart.line_len = 0;
	io(fx_v[0], UART_COM1_PORT + UART_MCR, 1, false, UART_MCR_LOOP);
	refused(fx_v[0], UART_TX, false);
	io(fx_v[0], UART_COM1_PORT + UART_MCR, 1, false, 0);
	refused(fx_v[0], UART_IER, false);
	refused(fx_v[0], UART_RX, true);
	refused(fx_v[0], UART_LCR, false);
	p->ioapic.rte[UART_COM1_IRQ] |= IOAPIC_RTE_LEVEL;
	refused(fx_v[0], UART_TX, false);
	p->ioapic.rte[UART_COM1_IRQ] &= ~(u64)IOAPIC_RTE_LEVEL;
	assert_true(fast(fx_v[0], UART_TX, false, &val));
	/* Two bytes a second, one sent: the next fits the bank, the one
	 * after would make the transmitter busy. */
	fake_tsc_set(1000, 0);
	uart_set_rate(&p->uart, 2, KHZ, 1000);
	assert_true(fast(fx_v[0], UART_TX, false, &val));
	assert_true(fast(fx_v[0], UART_TX, false, &val));
	refused(fx_v[0], UART_TX, false);
	p->poll_at = 0;
	io(fx_v[0], UART_COM1_PORT, 1, false, 'y');
	assert_true(p->uart.tx_busy);
	assert_int_equal(p->poll_at, 1); /* uart_out() asked for the poll */
	refused(fx_v[0], UART_LSR, true);
}

#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_thre_interrupt),
		T(test_rx_fifo_and_priorities),
		T(test_dlab_scratch_loopback),
		T(test_console_line_whole),
		T(test_irq4_through_ioapic),
		T(test_input_polled),
		T(test_tx_rate_backpressure),
		T(test_tx_rate_polled),
		T(test_thre_owed_until_writer_stops),
		T(test_fast_8250_load),
		T(test_fast_refuses),
	};
	return cmocka_run_group_tests_name("uart", tests, NULL, NULL);
}
