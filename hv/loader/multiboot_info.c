// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/multiboot_info.c - the Multiboot v1 boot information (spec 3.3)
 * minhv hands a kernel in EBX: memory sizes, a memory map (RAM below
 * 639 KiB, the BIOS area reserved for the ACPI tables, RAM from 1 MiB),
 * the command line and module 0 (initrd=). All of it in one page at
 * MB_INFO_GPA (or a page of conventional memory the image leaves free),
 * which the map marks reserved; where that page and the module go. */
#include "arch/errno.h"
#include "hv/loader/multiboot.h"
#include "hv/loader/place.h"
#include "hv/log.h"
#include "lib/string.h"

#define OFF_MODS 0x60
#define OFF_NAME 0x70
#define OFF_MMAP 0x80
#define OFF_CMDLINE 0x200
#define NR_MMAP 5

_Static_assert(OFF_MODS >= sizeof(struct mb_info), "modules after info");
_Static_assert(OFF_MMAP + NR_MMAP * sizeof(struct mb_mmap_entry) <= OFF_CMDLINE,
	       "mmap before cmdline");
_Static_assert(OFF_CMDLINE + MB_CMDLINE_MAX <= MB_INFO_END - MB_INFO_GPA,
	       "cmdline in the page");

static void mmap_entry(struct mb_mmap_entry *e, u64 base, u64 end, u32 type)
{
	e->size = sizeof(*e) - 4;
	e->base_addr = base;
	e->length = end - base;
	e->type = type;
}

static const struct place_win low_win = { MB_LOW_IMAGE_MIN, MB_LOW_RAM_END };

static bool low_page_used(const struct mb_load_info *li, u64 gpa)
{
	u64 pg = gpa / PAGE_SIZE;

	return pg < MB_LOW_PAGES && (li->low_used[pg / 64] & BIT(pg % 64));
}

/* MB_INFO_GPA when the image leaves it free; else the first free page of
 * conventional memory after the image's highest one there (where QEMU
 * puts it: a real-mode test uses what lies below its code), wrapping
 * round to MB_LOW_IMAGE_MIN; 0 when there is none. */
static u64 free_low_page(const struct mb_load_info *li)
{
	const u64 first = MB_LOW_IMAGE_MIN / PAGE_SIZE,
		  pages = MB_LOW_RAM_END / PAGE_SIZE - first;
	u64 high = 0;

	if (!low_page_used(li, MB_INFO_GPA))
		return MB_INFO_GPA;
	for (u64 pg = first; pg < first + pages; pg++)
		if (low_page_used(li, pg * PAGE_SIZE))
			high = pg - first + 1;
	for (u64 k = 0; k < pages; k++) {
		u64 at = (first + (high + k) % pages) * PAGE_SIZE;

		if (!low_page_used(li, at))
			return at;
	}
	return 0;
}

int mb_boot_place(const struct mb_load_info *li, struct mb_boot *b)
{
	const struct place_win high = { PLACE_FLOOR, b->mem_size };
	u64 at;

	b->info_gpa = free_low_page(li);
	if (!b->info_gpa) {
		pr_err("multiboot: no free page for the boot information below 0x9fc00\n");
		return -E2BIG;
	}
	b->mod_start = 0;
	if (!b->mod_size)
		return 0;
	/* Above all the image occupies, never below 1 MiB: nothing minhv
	 * put in conventional memory or the BIOS area lies there. */
	if (!place_align_up(li->end > PLACE_FLOOR ? li->end : PLACE_FLOOR,
			    PAGE_SIZE, &at) ||
	    !place_fits(&high, at, b->mod_size)) {
		pr_err("multiboot: module 0 (%#llx bytes) does not fit above the image (guest_mem=)\n",
		       (unsigned long long)b->mod_size);
		return -E2BIG;
	}
	b->mod_start = at;
	return 0;
}

u32 mb_info_build(void *mem_host, const struct mb_boot *b)
{
	const struct place_mem m = { mem_host, b->mem_size };
	u64 at = b->info_gpa ? b->info_gpa : MB_INFO_GPA;
	u8 *page = place_dst(&m, &low_win, at, PAGE_SIZE);
	struct mb_info *mi;
	struct mb_module *mod;
	struct mb_mmap_entry *mm;
	size_t n = b->cmdline ? strlen(b->cmdline) : 0;

	if (!page || !IS_ALIGNED(at, PAGE_SIZE))
		return 0;
	mi = (void *)page;
	mod = (void *)(page + OFF_MODS);
	mm = (void *)(page + OFF_MMAP);
	memset(page, 0, MB_INFO_END - MB_INFO_GPA);
	mi->flags = MB_INFO_MEM | MB_INFO_CMDLINE | MB_INFO_MMAP |
		    MB_INFO_LOADER_NAME;
	mi->mem_lower = MB_LOW_RAM_END >> 10;
	mi->mem_upper = (u32)((b->mem_size - MB_IMAGE_MIN) >> 10);
	if (n >= MB_CMDLINE_MAX)
		n = MB_CMDLINE_MAX - 1;
	memcpy(page + OFF_CMDLINE, b->cmdline ? b->cmdline : "", n);
	mi->cmdline = (u32)at + OFF_CMDLINE;
	memcpy(page + OFF_NAME, "minhv", 6);
	mi->boot_loader_name = (u32)at + OFF_NAME;
	if (b->mod_size) {
		mi->flags |= MB_INFO_MODS;
		mi->mods_count = 1;
		mi->mods_addr = (u32)at + OFF_MODS;
		mod->mod_start = (u32)b->mod_start;
		mod->mod_end = (u32)(b->mod_start + b->mod_size);
		mod->string = mi->cmdline + (u32)n; /* "" */
	}
	mmap_entry(&mm[0], 0, at, 1);
	mmap_entry(&mm[1], at, at + PAGE_SIZE, 2);
	mmap_entry(&mm[2], at + PAGE_SIZE, MB_LOW_RAM_END, 1);
	mmap_entry(&mm[3], MB_BIOS_START, MB_IMAGE_MIN, 2);
	mmap_entry(&mm[4], MB_IMAGE_MIN, b->mem_size, 1);
	mi->mmap_addr = (u32)at + OFF_MMAP;
	mi->mmap_length = NR_MMAP * sizeof(struct mb_mmap_entry);
	return (u32)at;
}
