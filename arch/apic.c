// SPDX-License-Identifier: GPL-2.0-only
/* arch/apic.c - back-end selection and the mode-independent parts: per-CPU
 * enable, LVT masking, the one-shot timer (SDM vol 3 11.4, 11.5). */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/msr.h"

const struct apic_ops *g_apic = &apic_xapic_ops;
hpa_t g_xapic_base = { APIC_DEFAULT_BASE };

void apic_select(bool x2apic, hpa_t mmio_base)
{
	if (mmio_base.v)
		g_xapic_base = mmio_base;
	g_apic = x2apic ? &apic_x2apic_ops : &apic_xapic_ops;
}

void apic_set_fence(bool fence)
{
	if (g_apic->mode == APIC_MODE_X2APIC)
		g_apic = fence ? &apic_x2apic_fenced_ops : &apic_x2apic_ops;
}

void apic_cpu_init(u8 spurious_vector, bool boot_cpu)
{
	const struct apic_ops *a = g_apic;

	a->enable();
	a->write(APIC_REG_TPR, 0);
	a->write(APIC_REG_LVT_TIMER, APIC_LVT_MASKED);
	a->write(APIC_REG_LVT_ERROR, APIC_LVT_MASKED);
	/* minhv takes no legacy PIC interrupts; LINT1 stays NMI on the BSP */
	a->write(APIC_REG_LVT_LINT0, APIC_LVT_MASKED);
	if (!boot_cpu)
		a->write(APIC_REG_LVT_LINT1, APIC_LVT_MASKED);
	/* ESR: write before read to latch (SDM 11.5.3); x2APIC wants 0 */
	a->write(APIC_REG_ESR, 0);
	a->write(APIC_REG_SVR, APIC_SVR_ENABLE | spurious_vector);
}

void apic_timer_oneshot(u8 vector, u32 count, u32 divide)
{
	g_apic->write(APIC_REG_TIMER_DIV, divide);
	g_apic->write(APIC_REG_LVT_TIMER,
		      vector); /* bits 18:17 = 0: one-shot */
	g_apic->write(APIC_REG_TIMER_INIT, count);
}

void apic_timer_stop(void)
{
	g_apic->write(APIC_REG_LVT_TIMER, APIC_LVT_MASKED);
	g_apic->write(APIC_REG_TIMER_INIT, 0);
}

u32 apic_timer_remaining(void)
{
	return g_apic->read(APIC_REG_TIMER_CUR);
}

bool apic_irr_pending(u8 vector)
{
	return g_apic->read(APIC_REG_IRR + (vector / 32) * 0x10) &
	       (1u << (vector % 32));
}

bool apic_isr_set(u8 vector)
{
	return g_apic->read(APIC_REG_ISR + (vector / 32) * 0x10) &
	       (1u << (vector % 32));
}
