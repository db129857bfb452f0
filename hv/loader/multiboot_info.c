// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/multiboot_info.c - the Multiboot v1 boot information (spec 3.3)
 * minhv hands a kernel in EBX: memory sizes, a memory map (RAM below
 * 639 KiB, the BIOS area reserved for the ACPI tables, RAM from 1 MiB),
 * the command line and module 0 (initrd=). All of it in one page at
 * MB_INFO_GPA (or the page after an image in conventional memory), which
 * the map marks reserved. */
#include "hv/loader/multiboot.h"
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

u32 mb_info_build(void *mem_host, const struct mb_boot *b)
{
	u64 at = b->info_gpa ? b->info_gpa : MB_INFO_GPA;
	u8 *page = (u8 *)mem_host + at;
	struct mb_info *mi = (void *)page;
	struct mb_module *mod = (void *)(page + OFF_MODS);
	struct mb_mmap_entry *mm = (void *)(page + OFF_MMAP);
	size_t n = b->cmdline ? strlen(b->cmdline) : 0;

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
