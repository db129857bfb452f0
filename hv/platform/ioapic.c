// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/ioapic.c - the guest's I/O APIC (Intel 82093AA data sheet;
 * QEMU's and KVM's models behave the same): IOREGSEL/IOWIN and the EOI
 * register of version 0x20, 24 redirection entries, edge and level
 * triggers with the remote IRR, and messages to the vLAPICs by physical
 * or logical destination (fixed, lowest priority to one of them, NMI,
 * INIT). ExtINT would ask the 8259 for a vector: minhv's never has one. */
#include "arch/apicdef.h"
#include "arch/ioapic.h"
#include "hv/platform/platform.h"

#define RTE_RESET IOAPIC_RTE_MASKED

void ioapic_reset(struct vioapic *io, struct vlapic_bus *bus)
{
	*io = (struct vioapic){ .bus = bus };
	for (u32 i = 0; i < VIOAPIC_PINS; i++)
		io->rte[i] = RTE_RESET;
}

/* One message to the vLAPICs the entry names; true when one took it. */
static bool send(struct vioapic *io, u64 e)
{
	u32 mode = (u32)(e & IOAPIC_RTE_DELIVERY_MASK) >>
		   IOAPIC_RTE_DELIVERY_SHIFT;
	u32 dest = (u32)(e >> IOAPIC_RTE_DEST_SHIFT);
	bool logical = e & IOAPIC_RTE_DEST_LOGICAL;
	bool level = (e & IOAPIC_RTE_LEVEL) &&
		     (mode == APIC_DM_FIXED || mode == APIC_DM_LOWEST);
	struct vlapic_bus *bus = io->bus;
	bool took = false;

	if (!bus)
		return false;
	for (u32 i = 0; i < bus->n; i++) {
		struct vlapic *t = bus->at(bus->ctx, i);

		/* An 8-bit destination, as an xAPIC message has (x2APIC
		 * targets compare it with their 32-bit ID, as KVM does). */
		if (!t || !vlapic_match_dest(t, dest, logical, false))
			continue;
		if (!vlapic_deliver(t, mode, (u8)e, level))
			continue;
		took = true;
		/* Lowest priority: one target, the first that accepts (the
		 * choice is the implementation's, SDM 11.6.2.4). */
		if (mode == APIC_DM_LOWEST)
			break;
	}
	if (took)
		io->sent++;
	return took;
}

/* A level entry: deliver while asserted, unmasked and not in service. */
static void service_level(struct vioapic *io, u32 pin)
{
	u64 e = io->rte[pin];

	if (!(io->level & BIT(pin)) || (e & IOAPIC_RTE_MASKED) ||
	    (e & IOAPIC_RTE_REMOTE_IRR))
		return;
	/* Remote IRR: accepted, until the EOI (as KVM; one no vLAPIC took
	 * would never be EOId). */
	if (send(io, e))
		io->rte[pin] |= IOAPIC_RTE_REMOTE_IRR;
}

/* A change on the pin (or a level pin asserted again), under the lock. */
static __attribute__((noinline)) void set_irq_locked(struct vioapic *io,
						     u32 pin, bool level)
{
	u32 bit = BIT(pin);
	bool rising;

	spin_lock(&io->lock);
	rising = level && !(io->level & bit);
	io->level = level ? io->level | bit : io->level & ~bit;
	if (io->rte[pin] & IOAPIC_RTE_LEVEL)
		service_level(io, pin);
	else if (rising && !(io->rte[pin] & IOAPIC_RTE_MASKED))
		send(io, io->rte[pin]);
	spin_unlock(&io->lock);
}

void ioapic_set_irq(struct vioapic *io, u32 pin, bool level)
{
	if (pin >= VIOAPIC_PINS)
		return;
	/* An edge pin whose level did not change: nothing to do, and no
	 * lock (the 16550 asks at every access). Only this pin's device
	 * changes its bit, under the device's own lock; a guest making
	 * the entry level services the pin itself (reg_write()). */
	if (!(__atomic_load_n(&io->rte[pin], __ATOMIC_RELAXED) &
	      IOAPIC_RTE_LEVEL) &&
	    !(__atomic_load_n(&io->level, __ATOMIC_RELAXED) & BIT(pin)) ==
		    !level)
		return;
	set_irq_locked(io, pin, level);
}

static void eoi_locked(struct vioapic *io, u8 vector)
{
	for (u32 pin = 0; pin < VIOAPIC_PINS; pin++) {
		u64 e = io->rte[pin];

		if ((u8)e != vector || !(e & IOAPIC_RTE_LEVEL) ||
		    !(e & IOAPIC_RTE_REMOTE_IRR))
			continue;
		io->rte[pin] = e & ~(u64)IOAPIC_RTE_REMOTE_IRR;
		service_level(io, pin);
	}
}

void ioapic_eoi(struct vioapic *io, u8 vector)
{
	spin_lock(&io->lock);
	eoi_locked(io, vector);
	spin_unlock(&io->lock);
}

static u32 reg_read(const struct vioapic *io)
{
	u32 sel = io->regsel, pin = (sel - IOAPIC_REG_RTE_LO(0)) / 2;

	switch (sel) {
	case IOAPIC_REG_ID:
	case IOAPIC_REG_ARB: /* follows the ID (82093AA 3.2.3) */
		return io->id << IOAPIC_ID_SHIFT;
	case IOAPIC_REG_VER:
		return IOAPIC_VERSION_EOI | (VIOAPIC_PINS - 1) << 16;
	}
	if (sel < IOAPIC_REG_RTE_LO(0) || pin >= VIOAPIC_PINS)
		return 0;
	return (u32)(io->rte[pin] >> (sel & 1 ? 32 : 0));
}

static void reg_write(struct vioapic *io, u32 val)
{
	u32 sel = io->regsel, pin = (sel - IOAPIC_REG_RTE_LO(0)) / 2;
	u64 e;

	if (sel == IOAPIC_REG_ID)
		io->id = (val >> IOAPIC_ID_SHIFT) & IOAPIC_ID_MASK;
	if (sel < IOAPIC_REG_RTE_LO(0) || pin >= VIOAPIC_PINS)
		return; /* VER and ARB are read-only */
	e = io->rte[pin];
	if (sel & 1)
		e = (e & 0xffffffffULL) | (u64)val << 32;
	else
		e = (e & ~0xffffffffULL) | val;
	e = (e & ~(u64)IOAPIC_RTE_RO) | (io->rte[pin] & IOAPIC_RTE_RO);
	/* An edge entry has no remote IRR: Linux clears a stuck one by
	 * switching the entry to edge and back on parts without the EOI
	 * register (its __eoi_ioapic_pin()). */
	if (!(e & IOAPIC_RTE_LEVEL))
		e &= ~(u64)IOAPIC_RTE_REMOTE_IRR;
	io->rte[pin] = e;
	if (e & IOAPIC_RTE_LEVEL) /* unmasked while asserted: now */
		service_level(io, pin);
}

/* IOREGSEL at 0x00, IOWIN at 0x10 (32-bit accesses only, as the data
 * sheet requires), the EOI register at 0x40; each 256 bytes of the page
 * repeat the registers (QEMU decodes 8 address bits). */
static int mmio_read(void *dev, u64 off, unsigned size, u64 *val)
{
	struct vioapic *io = dev;

	spin_lock(&io->lock);
	off &= 0xff;
	if (off == IOAPIC_MMIO_REGSEL)
		*val = io->regsel;
	else if (off == IOAPIC_MMIO_WIN && size == 4)
		*val = reg_read(io);
	else
		*val = 0;
	spin_unlock(&io->lock);
	return 0;
}

static int mmio_write(void *dev, u64 off, unsigned size, u64 val)
{
	struct vioapic *io = dev;

	spin_lock(&io->lock);
	off &= 0xff;
	if (off == IOAPIC_MMIO_REGSEL)
		io->regsel = (u8)val;
	else if (off == IOAPIC_MMIO_WIN && size == 4)
		reg_write(io, (u32)val);
	else if (off == IOAPIC_MMIO_EOI && size == 4)
		eoi_locked(io, (u8)val);
	spin_unlock(&io->lock);
	return 0;
}

const struct mmio_ops ioapic_mmio_ops = { mmio_read, mmio_write };
