/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/loader/multiboot.h - Multiboot v1 kernels (Multiboot Specification
 * 0.6.96, sections 3.1 header, 3.2 machine state, 3.3 boot information):
 * detection by content, loading, and the boot information block. */
#ifndef MINHV_HV_LOADER_MULTIBOOT_H
#define MINHV_HV_LOADER_MULTIBOOT_H

#include "arch/errno.h"
#include <stddef.h>

#include "arch/types.h"

#define MB_HEADER_MAGIC 0x1badb002u
#define MB_BOOT_MAGIC 0x2badb002u /* EAX at entry */
#define MB_SEARCH 8192 /* the header lies in the first 8 KiB, 4-aligned */
#define MB_HDR_AOUT_KLUDGE BIT(16) /* load addresses in the header */
/* Header flags 0-15 are requirements (spec 3.1.2): minhv page-aligns the
 * module (bit 0) and gives memory information (bit 1); a video mode
 * (bit 2) it never sets, and bits 3-15 are undefined. */
#define MB_HDR_REQUIRED 0xffffu
#define MB_HDR_CAN_MEET (BIT(0) | BIT(1))

/* Where minhv puts things in a multiboot guest's memory (below 1 MiB;
 * the image itself must lie at or above 1 MiB). */
#define MB_INFO_GPA 0x9000ULL /* struct mb_info, modules, mmap, cmdline */
#define MB_INFO_END 0xa000ULL
#define MB_LOW_RAM_END 0x9fc00ULL /* conventional memory ends (639 KiB) */
#define MB_BIOS_START 0xe0000ULL /* reserved: the guest's ACPI tables */
#define MB_IMAGE_MIN 0x100000ULL
/* Images linked into conventional memory (kvm-unit-tests' realmode at
 * 0x8000) may use [MB_LOW_IMAGE_MIN, MB_LOW_RAM_END): page 0 (the real-mode
 * IVT) is left alone; the boot information moves out of their way. */
#define MB_LOW_IMAGE_MIN 0x1000ULL
#define MB_CMDLINE_MAX 0xe00 /* bytes, NUL included */
#define MB_MAX_MEM 0xc0000000ULL /* RAM below the 32-bit device hole */

struct mb_header {
	u32 magic, flags, checksum;
	u32 header_addr, load_addr, load_end_addr, bss_end_addr, entry_addr;
} __attribute__((packed));

#define MB_INFO_MEM BIT(0)
#define MB_INFO_CMDLINE BIT(2)
#define MB_INFO_MODS BIT(3)
#define MB_INFO_MMAP BIT(6)
#define MB_INFO_LOADER_NAME BIT(9)

struct mb_info {
	u32 flags; /* 0 */
	u32 mem_lower, mem_upper; /* 4, 8: KiB below 1 MiB / above 1 MiB */
	u32 boot_device; /* 12 */
	u32 cmdline; /* 16 */
	u32 mods_count, mods_addr; /* 20, 24 */
	u32 syms[4]; /* 28 */
	u32 mmap_length, mmap_addr; /* 44, 48 */
	u32 drives_length, drives_addr; /* 52, 56 */
	u32 config_table; /* 60 */
	u32 boot_loader_name; /* 64 */
	u32 apm_table; /* 68 */
	u32 vbe[6]; /* 72..95 */
} __attribute__((packed));

struct mb_module {
	u32 mod_start, mod_end, string, reserved;
} __attribute__((packed));

/* size does not count itself: the next entry is at +size+4. */
struct mb_mmap_entry {
	u32 size;
	u64 base_addr, length;
	u32 type; /* 1 RAM, 2 reserved */
} __attribute__((packed));

_Static_assert(sizeof(struct mb_header) == 32, "multiboot header");
_Static_assert(__builtin_offsetof(struct mb_info, cmdline) == 16, "cmdline");
_Static_assert(__builtin_offsetof(struct mb_info, mods_count) == 20, "mods");
_Static_assert(__builtin_offsetof(struct mb_info, mmap_length) == 44, "mmap");
_Static_assert(__builtin_offsetof(struct mb_info, boot_loader_name) == 64,
	       "boot_loader_name");
_Static_assert(sizeof(struct mb_info) == 96, "multiboot info");
_Static_assert(sizeof(struct mb_mmap_entry) == 24, "mmap entry");

/* The header's offset in img; -EBADMSG when the magic is there but no
 * checksum matches; -ENOENT when img is no multiboot kernel. */
long mb_find_header(const void *img, size_t size);

/* Pages of conventional memory, [0, MB_LOW_RAM_END) rounded up. */
#define MB_LOW_PAGES ((MB_LOW_RAM_END + PAGE_SIZE - 1) / PAGE_SIZE)

struct mb_load_info {
	u32 entry;
	u64 start, end; /* lowest and highest + 1 GPA the image occupies */
	/* The pages of conventional memory the image occupies, a bit each. */
	u64 low_used[(MB_LOW_PAGES + 63) / 64];
};

/* Load a multiboot kernel (header address fields when flag 16 is set,
 * else ELF32 or ELF64 PT_LOAD segments at their physical addresses) into
 * guest memory [0, limit). Each segment must lie in [MB_IMAGE_MIN, limit)
 * or in [MB_LOW_IMAGE_MIN, MB_LOW_RAM_END). The header's requirement
 * flags must be ones minhv meets. 0, or -EINVAL/-EFAULT after one pr_err
 * line naming the problem; nothing is written unless every segment fits. */
int mb_load(const void *img, size_t size, void *mem_host, u64 limit,
	    struct mb_load_info *out);

struct mb_boot {
	u64 mem_size; /* bytes of guest RAM */
	const char *cmdline; /* may be NULL */
	u64 mod_start, mod_size; /* mod_size 0: no module */
	/* Where the page goes: 0 = MB_INFO_GPA; another page of
	 * conventional memory when the image itself lies there. */
	u64 info_gpa;
};

/* Where module 0 (b->mod_size bytes, 0: none) and the boot information
 * page go, for the image li in b->mem_size bytes of guest memory: the
 * module page-aligned above all the image occupies and at or above 1 MiB
 * (never over the image, the boot information or the ACPI tables), the
 * page at MB_INFO_GPA or else the lowest page of conventional memory
 * [MB_LOW_IMAGE_MIN, MB_LOW_RAM_END) the image leaves free. Sets
 * b->mod_start and b->info_gpa; 0, or -E2BIG after one pr_err line. */
int mb_boot_place(const struct mb_load_info *li, struct mb_boot *b);

/* Write the boot information page at b->info_gpa (MB_INFO_GPA when 0);
 * returns its GPA (EBX), or 0 (nothing written) when that page is not in
 * conventional memory [MB_LOW_IMAGE_MIN, MB_LOW_RAM_END). */
u32 mb_info_build(void *mem_host, const struct mb_boot *b);

#endif
