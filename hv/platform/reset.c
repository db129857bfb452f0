// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/reset.c - the reset control register at port 0xCF9 (Intel
 * ICH9 data sheet 13.7.5; PIIX4 the same): writing RST_CPU (bit 2) resets
 * the machine, SYS_RST (bit 1) reads back. It is also the FADT's
 * RESET_REG (value 6), the reset Linux tries first (reboot=acpi). */
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

u32 reset_in(struct vcpu *v, u16 port, unsigned size)
{
	(void)port;
	(void)size;
	return vcpu_platform(v)->rcr;
}

void reset_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	(void)port;
	(void)size;
	if (val & RESET_RCR_RST_CPU)
		vcpu_end_guest(v, GUEST_END_RESET,
			       "vCPU %u: reset by port 0xcf9 (value %#x)",
			       vcpu_id(v), val & 0xff);
	else
		vcpu_platform(v)->rcr = val & RESET_RCR_SYS_RST;
}
