// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/multiboot.c - find a Multiboot v1 header (spec 3.1.1), refuse
 * the requirements minhv cannot meet (3.1.2), and load the kernel: the
 * header's a.out-kludge addresses (3.1.3) when flag 16 is set, else the
 * ELF32 or ELF64 PT_LOAD segments at their physical addresses through the
 * one ELF loader (elf.c). Every segment is checked on its own
 * (hv/loader/place.h) before a byte is written. */
#include "arch/errno.h"
#include "hv/loader/elf.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/multiboot.h"
#include "hv/loader/place.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"
#include "hv/log.h"

long mb_find_header(const void *img, size_t size)
{
	const u8 *p = img;
	long bad = -ENOENT;

	for (size_t off = 0;
	     off + sizeof(struct mb_header) <= size && off + 12 <= MB_SEARCH;
	     off += 4) {
		struct mb_header h;

		memcpy(&h, p + off, sizeof(h));
		if (h.magic != MB_HEADER_MAGIC)
			continue;
		if ((u32)(h.magic + h.flags + h.checksum) == 0)
			return (long)off;
		bad = -EBADMSG; /* the magic, but not its checksum */
	}
	return bad;
}

/* The image occupies [a, b): its bounds, and its pages in conventional
 * memory (the boot information goes in one it leaves free). */
static void note(void *ctx, u64 a, u64 len)
{
	struct mb_load_info *o = ctx;
	u64 b = a + len;

	if (!o->end || a < o->start)
		o->start = a;
	if (b > o->end)
		o->end = b;
	for (u64 pg = a / PAGE_SIZE; pg * PAGE_SIZE < b && pg < MB_LOW_PAGES;
	     pg++)
		o->low_used[pg / 64] |= BIT(pg % 64);
}

/* The a.out kludge's one segment: file bytes inside img, memory inside
 * [MB_IMAGE_MIN, limit) or conventional memory, as the ELF policy below;
 * then copied through place_dst(). */
static int aout_load(void *mem, u64 limit, u64 gpa, u64 memsz, const u8 *img,
		     u64 off, u64 filesz, size_t size)
{
	const struct place_win high = { MB_IMAGE_MIN, limit },
			       low = { MB_LOW_IMAGE_MIN, MB_LOW_RAM_END };
	const struct place_mem m = { mem, limit };
	const struct place_win *w = place_fits(&low, gpa, memsz)  ? &low :
				    place_fits(&high, gpa, memsz) ? &high :
								    NULL;
	u8 *dst;

	if (filesz > memsz || off > size || filesz > size - off) {
		pr_err("multiboot: a segment reaches past the end of the file\n");
		return -EINVAL;
	}
	dst = w ? place_dst(&m, w, gpa, memsz) : NULL;
	if (!dst) {
		pr_err("multiboot: segment [%#llx, +%#llx) is outside [1 MiB, %#llx) (guest_mem=) and [0x1000, 0x9fc00)\n",
		       (unsigned long long)gpa, (unsigned long long)memsz,
		       (unsigned long long)limit);
		return -EFAULT;
	}
	memcpy(dst, img + off, filesz);
	memset(dst + filesz, 0, memsz - filesz);
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
	r = aout_load(mem, limit, h.load_addr, memsz, img, off, filesz, size);
	if (r)
		return r;
	o->entry = h.entry_addr;
	note(o, h.load_addr, memsz);
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
		.placed = note,
		.ctx = out,
	};
	int r;

	*out = (struct mb_load_info){ 0 };
	if (hoff == -EBADMSG) {
		pr_err("multiboot: bad header checksum\n");
		return -EINVAL;
	}
	if (hoff < 0) {
		pr_err("multiboot: no multiboot header in the first 8 KiB\n");
		return -EINVAL;
	}
	memcpy(&h, p + hoff, sizeof(h));
	/* Spec 3.1.2: a loader must refuse a requirement (bits 0-15) it
	 * does not understand or cannot meet. */
	if (h.flags & MB_HDR_REQUIRED & ~MB_HDR_CAN_MEET) {
		pr_err("multiboot: header flags %#x require what minhv cannot give (3.1.2)\n",
		       (unsigned)(h.flags & MB_HDR_REQUIRED &
				  ~MB_HDR_CAN_MEET));
		return -EINVAL;
	}
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
	out->entry = (u32)ei.entry.v; /* start, end, low_used: note() */
	return 0;
}
