/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/loader/bzimage.h - the Linux x86 boot protocol (Documentation/arch/x86/
 * boot.rst in the Linux tree): the setup header of a bzImage, the zero page
 * (struct boot_params) and its e820 map, as far as minhv fills them. */
#ifndef MINHV_HV_LOADER_BZIMAGE_H
#define MINHV_HV_LOADER_BZIMAGE_H

#include "arch/types.h"

#define BZ_HDR_OFFSET \
	0x1f1 /* the setup header inside the image and zero page */
#define BZ_HDR_MAGIC 0x53726448u /* "HdrS" at 0x202 */
#define BZ_BOOT_FLAG 0xaa55
#define BZ_MIN_VERSION 0x020c /* 2.12: xloadflags, the 64-bit entry flag */
#define BZ_LOADED_HIGH 0x01 /* loadflags: protected-mode code at 1 MiB+ */
#define BZ_XLF_KERNEL_64 0x01 /* xloadflags: 64-bit entry at +0x200 */
#define BZ_ENTRY64_OFFSET 0x200
#define BZ_LOADER_UNDEFINED 0xff /* type_of_loader: no assigned ID */

/* The setup header (boot.rst "The real-mode kernel header"), packed as in
 * the image; offsets in comments are from the start of the image. */
struct setup_header {
	u8 setup_sects; /* 0x1f1 */
	u16 root_flags;
	u32 syssize; /* 16-byte paragraphs of protected-mode code */
	u16 ram_size;
	u16 vid_mode;
	u16 root_dev;
	u16 boot_flag; /* 0x1fe: 0xAA55 */
	u16 jump; /* 0x200 */
	u32 header; /* 0x202: "HdrS" */
	u16 version; /* 0x206 */
	u32 realmode_swtch;
	u16 start_sys_seg;
	u16 kernel_version;
	u8 type_of_loader; /* 0x210 */
	u8 loadflags;
	u16 setup_move_size;
	u32 code32_start; /* 0x214 */
	u32 ramdisk_image; /* 0x218 */
	u32 ramdisk_size;
	u32 bootsect_kludge;
	u16 heap_end_ptr;
	u8 ext_loader_ver;
	u8 ext_loader_type;
	u32 cmd_line_ptr; /* 0x228 */
	u32 initrd_addr_max;
	u32 kernel_alignment; /* 0x230 */
	u8 relocatable_kernel;
	u8 min_alignment;
	u16 xloadflags; /* 0x236 */
	u32 cmdline_size;
	u32 hardware_subarch;
	u64 hardware_subarch_data;
	u32 payload_offset;
	u32 payload_length;
	u64 setup_data; /* 0x250 */
	u64 pref_address; /* 0x258 */
	u32 init_size; /* 0x260 */
	u32 handover_offset;
	u32 kernel_info_offset; /* 0x268 */
} __attribute__((packed));

#define BZ_HDR_AT(field) \
	(BZ_HDR_OFFSET + __builtin_offsetof(struct setup_header, field))
_Static_assert(BZ_HDR_AT(boot_flag) == 0x1fe, "boot_flag");
_Static_assert(BZ_HDR_AT(header) == 0x202, "header");
_Static_assert(BZ_HDR_AT(type_of_loader) == 0x210, "type_of_loader");
_Static_assert(BZ_HDR_AT(ramdisk_image) == 0x218, "ramdisk_image");
_Static_assert(BZ_HDR_AT(cmd_line_ptr) == 0x228, "cmd_line_ptr");
_Static_assert(BZ_HDR_AT(xloadflags) == 0x236, "xloadflags");
_Static_assert(BZ_HDR_AT(pref_address) == 0x258, "pref_address");
_Static_assert(BZ_HDR_AT(kernel_info_offset) == 0x268, "kernel_info_offset");

#define E820_RAM 1
#define E820_RESERVED 2
#define E820_MAX_ENTRIES_ZEROPAGE 128

struct boot_e820_entry {
	u64 addr, size;
	u32 type;
} __attribute__((packed));

/* The zero page (arch/x86/include/uapi/asm/bootparam.h), only the fields
 * minhv writes named; the rest stays zero. */
struct boot_params {
	u8 pad0[0xc0];
	u32 ext_ramdisk_image; /* 0x0c0 */
	u32 ext_ramdisk_size;
	u32 ext_cmd_line_ptr; /* 0x0c8 */
	u8 pad1[0x1e8 - 0xcc];
	u8 e820_entries; /* 0x1e8 */
	u8 eddbuf_entries;
	u8 edd_mbr_sig_buf_entries;
	u8 kbd_status;
	u8 secure_boot;
	u8 pad2[2];
	u8 sentinel; /* 0x1ef */
	u8 pad3;
	struct setup_header hdr; /* 0x1f1 */
	u8 pad4[0x290 - BZ_HDR_OFFSET - sizeof(struct setup_header)];
	u32 edd_mbr_sig_buffer[16]; /* 0x290 */
	struct boot_e820_entry e820_table[E820_MAX_ENTRIES_ZEROPAGE]; /* 0x2d0 */
	u8 pad5[0x1000 - 0x2d0 - E820_MAX_ENTRIES_ZEROPAGE * 20];
} __attribute__((packed));

_Static_assert(sizeof(struct boot_params) == 0x1000, "zero page is a page");
_Static_assert(__builtin_offsetof(struct boot_params, e820_entries) == 0x1e8,
	       "e820_entries");
_Static_assert(__builtin_offsetof(struct boot_params, hdr) == 0x1f1, "hdr");
_Static_assert(__builtin_offsetof(struct boot_params, e820_table) == 0x2d0,
	       "e820_table");

/* What minhv needs from a bzImage, all checked by bzimage_parse(). */
struct bzimage_info {
	u16 version;
	u32 hdr_len; /* bytes of setup header to copy, from 0x1f1 */
	u64 kernel_off; /* protected-mode kernel: file offset and size */
	u64 kernel_size;
	u64 pref_address, alignment;
	bool relocatable;
	u64 init_size; /* memory the kernel needs from its load address */
	u32 initrd_addr_max, cmdline_size;
};

/* Does img look like a bzImage ("HdrS" at 0x202)? Says nothing of validity. */
bool bzimage_detect(const void *img, size_t size);
/* Check the setup header for what minhv's 64-bit boot needs (protocol
 * >= 2.12, LOADED_HIGH, XLF_KERNEL_64, a protected-mode part inside the
 * file). 0, or -EINVAL after one pr_err line naming the problem. */
int bzimage_parse(const void *img, size_t size, struct bzimage_info *out);

#endif
