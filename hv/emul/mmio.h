/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/emul/mmio.h - a device's MMIO registers as the emulator reaches them:
 * accessors on a region of guest-physical space. The device models
 * implement them; hv/guest/mmio.h emulates the access that hit them. */
#ifndef MINHV_HV_EMUL_MMIO_H
#define MINHV_HV_EMUL_MMIO_H

#include "arch/types.h"

/* A device's register accessors: off is from the region's base, size is
 * 1, 2, 4 or 8. 0, or a negative errno (the access is not emulated and
 * the guest register and RIP are left alone). */
struct mmio_ops {
	int (*read)(void *dev, u64 off, unsigned size, u64 *val);
	int (*write)(void *dev, u64 off, unsigned size, u64 val);
};

/* Guest-physical [base, base + size) handled by ops on dev. */
struct mmio_region {
	gpa_t base;
	u64 size;
	const struct mmio_ops *ops;
	void *dev;
	const char *name; /* in messages: "local APIC" */
};

#endif
