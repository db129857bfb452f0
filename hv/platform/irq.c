// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/irq.c - the platform's interrupt lines. Until the guest's
 * I/O APIC is modelled (issue 25) a line leads nowhere: the level a
 * device sets is dropped, and a guest that waits for the interrupt waits
 * in vain. The I/O APIC's pins take this function over. */
#include "hv/platform/platform.h"

void platform_set_irq(struct platform *p, u32 irq, bool level)
{
	(void)p;
	(void)irq;
	(void)level;
}
