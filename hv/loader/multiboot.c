// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/multiboot.c - find a Multiboot v1 header (spec 3.1.1) and load
 * the kernel: the header's a.out-kludge addresses (3.1.3) when flag 16 is
 * set, else the ELF32 or ELF64 PT_LOAD segments at their physical
 * addresses through the one ELF loader (elf.c). Every range is checked
 * before a byte is written. */
#include "arch/errno.h"
#include "hv/loader/elf.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/multiboot.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"
#include "hv/log.h"

long mb_find_header(const void *img, size_t size)
{
	const u8 *p = img;

	for (size_t off = 0;
	     off + sizeof(struct mb_header) <= size && off + 12 <= MB_SEARCH;
	     off += 4) {
		struct mb_header h;

		memcpy(&h, p + off, sizeof(h));
		if (h.magic == MB_HEADER_MAGIC &&
		    (u32)(h.magic + h.flags + h.checksum) == 0)
			return (long)off;
	}
	return -ENOENT;
}

/* The a.out kludge's one segment: [gpa, gpa + memsz) inside
 * [MB_IMAGE_MIN, limit) or conventional memory, file bytes inside img. */
static int range_ok(u64 gpa, u64 memsz, u64 off, u64 filesz, size_t size,
		    u64 limit)
{
	if (filesz > memsz || off > size || filesz > size - off) {
		pr_err("multiboot: a segment reaches past the end of the file\n");
		return -EINVAL;
	}
	if (gpa >= MB_LOW_IMAGE_MIN && gpa < MB_LOW_RAM_END &&
	    memsz <= MB_LOW_RAM_END - gpa)
		return 0; /* conventional memory (a real-mode test) */
	if (gpa < MB_IMAGE_MIN || gpa > limit || memsz > limit - gpa) {
		pr_err("multiboot: segment [%#llx, %#llx) is outside [%#llx, %#llx): %s\n",
		       (unsigned long long)gpa,
		       (unsigned long long)(gpa + memsz),
		       (unsigned long long)MB_IMAGE_MIN,
		       (unsigned long long)limit,
		       gpa < MB_IMAGE_MIN ?
			       "below 1 MiB and not inside conventional memory [0x1000, 0x9fc00)" :
			       "it does not fit guest memory (guest_mem=)");
		return -EFAULT;
	}
	return 0;
}

static int load_aout(const u8 *img, size_t size, long hoff, void *mem,
		     u64 limit, struct mb_load_info *o)
{
	struct mb_header h;
	u64 off, filesz, memsz;
	int r;

	memcpy(&h, img + hoff, sizeof(h));
	if (h.header_addr < h.load_addr ||
	    h.header_addr - h.load_addr > (u64)hoff) {
		pr_err("multiboot: header_addr/load_addr disagree with the file\n");
		return -EINVAL;
	}
	off = (u64)hoff - (h.header_addr - h.load_addr);
	filesz = h.load_end_addr ? (u64)h.load_end_addr - h.load_addr :
				   size - off;
	memsz = h.bss_end_addr > h.load_addr ?
			(u64)h.bss_end_addr - h.load_addr :
			filesz;
	if (h.load_end_addr && h.load_end_addr < h.load_addr) {
		pr_err("multiboot: load_end_addr below load_addr\n");
		return -EINVAL;
	}
	r = range_ok(h.load_addr, memsz, off, filesz, size, limit);
	if (r)
		return r;
	memcpy((u8 *)mem + h.load_addr, img + off, filesz);
	memset((u8 *)mem + h.load_addr + filesz, 0, memsz - filesz);
	o->entry = h.entry_addr;
	o->start = h.load_addr;
	o->end = h.load_addr + memsz;
	return 0;
}

int mb_load(const void *img, size_t size, void *mem_host, u64 limit,
	    struct mb_load_info *out)
{
	const u8 *p = img;
	long hoff = mb_find_header(img, size);
	struct mb_header h;
	struct elf_load_info ei;
	/* ELF32 or ELF64 (the one loader, hv/loader/elf.c), each segment at
	 * its p_paddr whatever its p_vaddr, as GRUB loads them, inside the
	 * image range or conventional memory. */
	const struct elf_policy pol = {
		.elf32 = true,
		.min = MB_IMAGE_MIN,
		.limit = limit,
		.low_min = MB_LOW_IMAGE_MIN,
		.low_end = MB_LOW_RAM_END,
	};
	int r;

	*out = (struct mb_load_info){ 0 };
	if (hoff < 0) {
		pr_err("multiboot: no multiboot header in the first 8 KiB\n");
		return -EINVAL;
	}
	memcpy(&h, p + hoff, sizeof(h));
	if (h.flags & MB_HDR_AOUT_KLUDGE)
		return load_aout(p, size, hoff, mem_host, limit, out);
	if (size < sizeof(struct elf32_ehdr) || p[0] != ELFMAG0 ||
	    memcmp(p + 1, "ELF", 3)) {
		pr_err("multiboot: neither ELF nor header load addresses (flag 16)\n");
		return -EINVAL;
	}
	r = elf_load_policy(img, size, mem_host, limit, &pol, &ei);
	if (r)
		return r;
	if (ei.entry.v >> 32) {
		pr_err("multiboot: entry %#llx is above 4 GiB\n",
		       (unsigned long long)ei.entry.v);
		return -EINVAL;
	}
	out->entry = (u32)ei.entry.v;
	out->start = ei.lowest.v;
	out->end = ei.end.v;
	return 0;
}
