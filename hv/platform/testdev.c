// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/testdev.c - QEMU's pc-testdev (hw/misc/pc-testdev.c), the
 * device kvm-unit-tests drive, for multiboot guests: a 32-bit data
 * register at 0xe0-0xe3 (byte lanes by address) and again at 0xe8-0xeb, a
 * page-flush port at 0xe4 (nothing to flush here), ISA IRQ lines at
 * 0x2000 + n (a byte write of v sets line n to !!v) and 64 KiB of memory at
 * 0xff000000 that reads back what was written. That memory is guest RAM
 * mapped by the nested page tables (hv/guest/guest.c), not an MMIO
 * region: the guest's instructions on it run as they do on bare QEMU
 * (whose TCG executes them on its iomem the same), so emulator.flat
 * tests the CPU's instructions, not minhv's MMIO decoder. */
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

static u32 lane_mask(u16 off, unsigned size)
{
	return (size >= 4 ? ~0u : (1u << (8 * size)) - 1) << (8 * (off & 3));
}

u32 testdev_in(struct vcpu *v, u16 port, unsigned size)
{
	struct platform *p = vcpu_platform(v);

	if ((port & ~3) == TESTDEV_PORT_FLUSH - TESTDEV_PORT)
		return 0;
	return (p->testdev_data & lane_mask(port, size)) >> (8 * (port & 3));
}

void testdev_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);
	u32 m = lane_mask(port, size);

	if ((port & ~3) == TESTDEV_PORT_FLUSH - TESTDEV_PORT)
		return;
	p->testdev_data = (p->testdev_data & ~m) |
			  ((val << (8 * (port & 3))) & m);
}

u32 testdev_irq_in(struct vcpu *v, u16 port, unsigned size)
{
	(void)v;
	(void)port;
	(void)size;
	return 0;
}

void testdev_irq_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	struct platform *p = vcpu_platform(v);

	/* Byte writes only (QEMU drops wider ones); ISA line n, IRQ 0
	 * reaching GSI 2 as the PIT's does. */
	if (size == 1)
		platform_set_irq(p, port, val & 0xff);
}
