// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/irq.c - the guest platform's interrupt lines and time: ISA
 * IRQs onto the I/O APIC through the MADT's overrides (IRQ 0 -> GSI 2,
 * as QEMU wires it), the devices' reset state, and the poll that vCPU 0
 * runs when the host timer it armed for p->poll_at fires: the PIT's
 * channel 0, the RTC's IRQ 8, host console input for the UART and its
 * transmitter's THRE when guest_console_rate held it back; and the THRE
 * interrupt a written byte owes, on the writer's HLT or tick. Input
 * is polled (the host UART's LSR.DR, every PLATFORM_POLL_MS while the
 * guest's UART has its receive interrupt enabled) rather than taken as a
 * host interrupt: one port read per poll, no host IRQ routing. */
#include "arch/cpu.h"
#include "arch/ioapic.h"
#include "hv/console.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/uart_internal.h"

#define PIT_GSI 2

void platform_set_irq(struct platform *p, u32 irq, bool level)
{
	ioapic_set_irq(&p->ioapic, irq == PIT_IRQ ? PIT_GSI : irq, level);
}

void platform_pulse_irq(struct platform *p, u32 irq)
{
	platform_set_irq(p, irq, true);
	platform_set_irq(p, irq, false);
}

void platform_reset(struct platform *p)
{
	uart_reset(&p->uart);
	uart_set_rate(&p->uart, p->console_rate, p->tsc_khz, rdtsc());
	if (p->disk) /* power-on state; the image keeps what was written */
		virtio_blk_reset(p->disk);
	ioapic_reset(&p->ioapic, &p->lapic_bus);
	p->pit = (struct pit8254){ 0 };
	hpet_reset(&p->hpet, p->tsc_khz);
	p->poll_at = 0;
}

void platform_thre_tick(struct vcpu *v, bool idle)
{
	struct platform *p = vcpu_platform(v);
	struct uart16550 *u = &p->uart;

	/* The caller looked already (platform_thre_owed()); under the lock
	 * only the writer's tick counts, and a driver still in its loop
	 * touches the UART between ticks. */
	spin_lock(&p->lock);
	if (p->tx_vcpu == vcpu_id(v)) {
		if ((idle || !u->touched) && thre_settle(u))
			platform_set_irq(p, UART_COM1_IRQ, uart_irq(u));
		u->touched = false;
	}
	spin_unlock(&p->lock);
}

static u64 sooner(u64 a, u64 b)
{
	return !a || (b && b < a) ? b : a;
}

u64 platform_poll(struct vcpu *v, u64 now)
{
	struct platform *p = vcpu_platform(v);
	struct uart16550 *u = &p->uart;
	u64 next = 0, n;
	int c;

	spin_lock(&p->lock);
	if (u->ier & UART_IER_RDI) {
		while (uart_rx_room(u) && (c = console_getc()) >= 0)
			uart_rx_push(u, (u8)c);
		next = now + PLATFORM_POLL_MS * p->tsc_khz;
	}
	/* A transmitter over the rate: THRE when the line has drained. */
	next = sooner(next, uart_tx_poll(u, now));
	platform_set_irq(p, UART_COM1_IRQ, uart_irq(u));
	if (u->line_len) {
		n = u->line_tsc + UART_LINE_IDLE_MS * p->tsc_khz;
		if (now >= n)
			uart_flush(v);
		else
			next = sooner(next, n);
	}
	if (pit_poll(&p->pit, now, p->tsc_khz, &n))
		platform_pulse_irq(p, PIT_IRQ);
	next = sooner(next, n);
	platform_set_irq(p, RTC_IRQ,
			 rtc_irq(&p->rtc, now - p->pm_tsc0, p->tsc_khz, &n));
	next = sooner(next, n ? n + p->pm_tsc0 : 0);
	p->poll_at = next;
	spin_unlock(&p->lock);
	return next;
}
