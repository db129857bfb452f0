/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/loader/place.h - the one range check of every loader (ELF64,
 * multiboot, bzImage): a loader writes guest memory only through
 * place_dst(), so no loader can place a byte outside [floor, top) of the
 * window it names, and never above the top of guest memory, whatever
 * values an image holds (sums are checked for wrapping). */
#ifndef MINHV_HV_LOADER_PLACE_H
#define MINHV_HV_LOADER_PLACE_H

#include "arch/types.h"

/* Images go at or above 1 MiB: below it lie the boot data loaders write
 * (zero page, command line, multiboot information), the guest's ACPI
 * tables (0xE0000) and a PC's real-mode areas. A loader that uses low
 * memory names its own documented floor. */
#define PLACE_FLOOR 0x100000ULL

/* Guest-physical [0, size) backed by host memory at host. */
struct place_mem {
	void *host;
	u64 size;
};

/* Where a loader may write: guest-physical [floor, top). */
struct place_win {
	u64 floor, top;
};

/* Does [gpa, gpa + len) lie inside w, without wrapping? A range of 0
 * bytes fits when gpa lies in [floor, top]. */
bool place_fits(const struct place_win *w, u64 gpa, u64 len);

/* The host address of [gpa, gpa + len) when it lies inside w and inside
 * guest memory m, else NULL: the only way a loader reaches guest memory. */
void *place_dst(const struct place_mem *m, const struct place_win *w, u64 gpa,
		u64 len);

/* *out = a rounded up to align (a power of two, or 0/1 for none);
 * false when that wraps past 2^64. */
bool place_align_up(u64 a, u64 align, u64 *out);

#endif
