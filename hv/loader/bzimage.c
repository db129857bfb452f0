// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/bzimage.c - read and check a Linux bzImage's setup header
 * (Linux Documentation/arch/x86/boot.rst): boot protocol version, the
 * 64-bit entry, where the protected-mode kernel is and what it needs. */
#include "arch/errno.h"
#include "hv/loader/bzimage.h"
#include "hv/log.h"
#include "lib/string.h"

#define SECTOR 512

bool bzimage_detect(const void *img, size_t size)
{
	u32 magic;

	if (!img || size < BZ_HDR_AT(header) + 4)
		return false;
	memcpy(&magic, (const u8 *)img + BZ_HDR_AT(header), 4);
	return magic == BZ_HDR_MAGIC;
}

static int bad(const char *what)
{
	pr_err("bzimage: %s\n", what);
	return -EINVAL;
}

int bzimage_parse(const void *img, size_t size, struct bzimage_info *out)
{
	struct setup_header h;
	u64 setup_bytes, end;
	u32 hdr_end;

	if (!bzimage_detect(img, size))
		return bad("no \"HdrS\" at 0x202: not a Linux bzImage");
	if (size < BZ_HDR_OFFSET + sizeof(h)) {
		pr_err("bzimage: %zu bytes, too short for a setup header\n",
		       size);
		return -EINVAL;
	}
	memcpy(&h, (const u8 *)img + BZ_HDR_OFFSET, sizeof(h));
	if (h.boot_flag != BZ_BOOT_FLAG)
		return bad("boot_flag at 0x1fe is not 0xAA55");
	if (h.version < BZ_MIN_VERSION) {
		pr_err("bzimage: boot protocol %u.%02u, minhv needs 2.12 or later (64-bit entry)\n",
		       h.version >> 8, h.version & 0xff);
		return -EINVAL;
	}
	if (!(h.loadflags & BZ_LOADED_HIGH))
		return bad(
			"loadflags lacks LOADED_HIGH: a zImage, not a bzImage");
	if (!(h.xloadflags & BZ_XLF_KERNEL_64))
		return bad(
			"xloadflags lacks XLF_KERNEL_64: no 64-bit entry point");
	/* The header ends at 0x202 + the jump's offset byte (boot.rst). */
	hdr_end = 0x202 + ((const u8 *)img)[0x201];
	if (hdr_end <= BZ_HDR_AT(xloadflags) + 2 ||
	    hdr_end > BZ_HDR_OFFSET + sizeof(h))
		hdr_end = BZ_HDR_OFFSET + sizeof(h);
	setup_bytes = (u64)((h.setup_sects ? h.setup_sects : 4) + 1) * SECTOR;
	if (setup_bytes >= size) {
		pr_err("bzimage: setup_sects %u puts the kernel at %#llx, past the %zu-byte file\n",
		       h.setup_sects, (unsigned long long)setup_bytes, size);
		return -EINVAL;
	}
	end = setup_bytes + (u64)h.syssize * 16;
	if (!h.syssize || end > size) {
		pr_err("bzimage: truncated: syssize says the kernel ends at %#llx, the file has %zu bytes\n",
		       (unsigned long long)end, size);
		return -EINVAL;
	}
	if (!h.init_size)
		return bad("init_size is 0");
	if (h.relocatable_kernel &&
	    (!h.kernel_alignment ||
	     (h.kernel_alignment & (h.kernel_alignment - 1))))
		return bad("kernel_alignment is not a power of two");
	*out = (struct bzimage_info){
		.version = h.version,
		.hdr_len = hdr_end - BZ_HDR_OFFSET,
		.kernel_off = setup_bytes,
		.kernel_size = size - setup_bytes,
		.pref_address = h.pref_address,
		.alignment = h.kernel_alignment,
		.relocatable = h.relocatable_kernel,
		.init_size = h.init_size,
		.initrd_addr_max = h.initrd_addr_max,
		.cmdline_size = h.cmdline_size,
	};
	return 0;
}
