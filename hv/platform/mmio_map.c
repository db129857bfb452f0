// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/mmio_map.c - the platform's MMIO devices by guest-physical
 * address, as ports.c is its port table: the nested page fault of an
 * access outside guest RAM (hv/svm/exit_misc.c) asks here which device's
 * registers it hit: the I/O APIC, the HPET, the virtio disk. */
#include "arch/errno.h"
#include "arch/ioapic.h"
#include "arch/timers.h"
#include "hv/platform/platform.h"

int platform_mmio_find(struct platform *p, u64 addr, struct mmio_region *r)
{
	if (addr - IOAPIC_DEFAULT_BASE < VIOAPIC_MMIO_SIZE) {
		*r = (struct mmio_region){ gpa(IOAPIC_DEFAULT_BASE),
					   VIOAPIC_MMIO_SIZE, &ioapic_mmio_ops,
					   &p->ioapic, "I/O APIC" };
		return 0;
	}
	if (addr - HPET_DEFAULT_BASE < HPET_MMIO_SIZE) {
		*r = (struct mmio_region){ gpa(HPET_DEFAULT_BASE),
					   HPET_MMIO_SIZE, &hpet_mmio_ops,
					   &p->hpet, "HPET" };
		return 0;
	}
	if (p->disk && addr - VIRTIO_BLK_GPA < VIRTIO_MMIO_SIZE) {
		*r = (struct mmio_region){ gpa(VIRTIO_BLK_GPA),
					   VIRTIO_MMIO_SIZE, &virtio_mmio_ops,
					   p->disk, "virtio disk" };
		return 0;
	}
	return -ENOENT;
}
