// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/pic.c - the legacy 8259A pair (master 0x20/0x21, slave
 * 0xA0/0xA1) as a PIC that never delivers: it answers as a masked one does
 * (Intel 8259A data sheet). ICW1 clears the mask and starts the ICW2-4
 * sequence; afterwards a data write is OCW1, the mask, which reads back;
 * the command port reads IRR/ISR, both always empty. The power-up mask is
 * 0xFF. Guest interrupts come only from the vLAPIC. */
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

#define ICW1 BIT(4) /* command-port write with bit 4 set */
#define ICW1_IC4 BIT(0) /* ICW4 follows */
#define ICW1_SNGL BIT(1) /* single: no ICW3 */

static u32 pic_in(struct pic8259 *p, u16 off)
{
	return off ? p->imr : 0;
}

static void pic_out(struct pic8259 *p, u16 off, u32 val)
{
	if (!off) {
		if (val & ICW1) {
			p->imr = 0;
			p->icw = 2; /* ICW2 next */
			p->icw1 = (u8)val;
		}
		return; /* OCW2/OCW3 (EOI, read select): nothing to do */
	}
	if (p->icw) { /* this write is ICW2, ICW3 or ICW4 */
		if (p->icw == 2)
			p->icw = (p->icw1 & ICW1_SNGL) ? 4 : 3;
		else if (p->icw == 3)
			p->icw = 4;
		else
			p->icw = 0;
		if (p->icw == 4 && !(p->icw1 & ICW1_IC4))
			p->icw = 0;
		return;
	}
	p->imr = (u8)val;
}

u32 pic_master_in(struct vcpu *v, u16 off, unsigned size)
{
	(void)size;
	return pic_in(&vcpu_platform(v)->pic[0], off);
}

void pic_master_out(struct vcpu *v, u16 off, unsigned size, u32 val)
{
	(void)size;
	pic_out(&vcpu_platform(v)->pic[0], off, val);
}

u32 pic_slave_in(struct vcpu *v, u16 off, unsigned size)
{
	(void)size;
	return pic_in(&vcpu_platform(v)->pic[1], off);
}

void pic_slave_out(struct vcpu *v, u16 off, unsigned size, u32 val)
{
	(void)size;
	pic_out(&vcpu_platform(v)->pic[1], off, val);
}
