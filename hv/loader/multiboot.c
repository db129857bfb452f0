// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/multiboot.c - find a Multiboot v1 header (spec 3.1.1), refuse
 * the requirements minhv cannot meet (3.1.2), and load the kernel: the
 * header's a.out-kludge addresses (3.1.3) when flag 16 is set, else the
 * ELF32 or ELF64 PT_LOAD segments at their physical addresses. Every
 * segment is checked on its own (hv/loader/place.h) before a byte is
 * written. */
#include "arch/errno.h"
#include "hv/loader/elf.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/multiboot.h"
#include "hv/loader/place.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"
#include "hv/log.h"

struct elf32_ehdr {
	u8 e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version, e_entry, e_phoff, e_shoff, e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} __attribute__((packed));

struct elf32_phdr {
	u32 p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
		p_align;
} __attribute__((packed));

_Static_assert(sizeof(struct elf32_ehdr) == 52, "Elf32_Ehdr size");
_Static_assert(__builtin_offsetof(struct elf32_ehdr, e_phoff) == 0x1c,
	       "e_phoff");
_Static_assert(__builtin_offsetof(struct elf32_ehdr, e_phnum) == 0x2c,
	       "e_phnum");
_Static_assert(sizeof(struct elf32_phdr) == 32, "Elf32_Phdr size");

#define ELFCLASS32 1
#define EM_386 3

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

/* The two windows a segment may lie in: from 1 MiB to the image limit,
 * or conventional memory (a real-mode test's code at 0x8000). */
static const struct place_win *window_of(u64 gpa, u64 memsz,
					 const struct place_win *high)
{
	static const struct place_win low = { MB_LOW_IMAGE_MIN,
					      MB_LOW_RAM_END };

	if (place_fits(&low, gpa, memsz))
		return &low;
	return place_fits(high, gpa, memsz) ? high : NULL;
}

/* One segment on its own: file bytes inside img, memory inside a window. */
static int seg_ok(u64 gpa, u64 memsz, u64 off, u64 filesz, size_t size,
		  u64 limit)
{
	const struct place_win high = { MB_IMAGE_MIN, limit };
	u64 end;

	if (filesz > memsz || __builtin_add_overflow(off, filesz, &end) ||
	    end > size) {
		pr_err("multiboot: a segment reaches past the end of the file\n");
		return -EINVAL;
	}
	if (window_of(gpa, memsz, &high))
		return 0;
	pr_err("multiboot: segment [%#llx, +%#llx) is outside [1 MiB, %#llx) (guest_mem=) and [0x1000, 0x9fc00)\n",
	       (unsigned long long)gpa, (unsigned long long)memsz,
	       (unsigned long long)limit);
	return -EFAULT;
}

/* Copy one checked segment: filesz bytes of the file, the rest zero. */
static int seg_load(void *mem, u64 limit, u64 gpa, const u8 *src, u64 filesz,
		    u64 memsz)
{
	const struct place_win high = { MB_IMAGE_MIN, limit };
	const struct place_mem m = { mem, limit };
	const struct place_win *w = window_of(gpa, memsz, &high);
	u8 *dst = w ? place_dst(&m, w, gpa, memsz) : NULL;

	if (!dst)
		return -EFAULT;
	memcpy(dst, src, filesz);
	memset(dst + filesz, 0, memsz - filesz);
	return 0;
}

/* The image occupies [a, b): its bounds, and its pages in conventional
 * memory (the boot information goes in one it leaves free). */
static void note(struct mb_load_info *o, u64 a, u64 b)
{
	if (!o->end || a < o->start)
		o->start = a;
	if (b > o->end)
		o->end = b;
	for (u64 pg = a / PAGE_SIZE; pg * PAGE_SIZE < b && pg < MB_LOW_PAGES;
	     pg++)
		o->low_used[pg / 64] |= BIT(pg % 64);
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
	r = seg_ok(h.load_addr, memsz, off, filesz, size, limit);
	if (!r)
		r = seg_load(mem, limit, h.load_addr, img + off, filesz, memsz);
	if (r)
		return r;
	o->entry = h.entry_addr;
	note(o, h.load_addr, h.load_addr + memsz);
	return 0;
}

static int load_elf32(const u8 *img, size_t size, void *mem, u64 limit,
		      struct mb_load_info *o)
{
	struct elf32_ehdr e;
	int r;

	memcpy(&e, img, sizeof(e));
	if (e.e_machine != EM_386 || e.e_type != ET_EXEC ||
	    e.e_phentsize != sizeof(struct elf32_phdr) || e.e_phoff > size ||
	    (u64)e.e_phnum * sizeof(struct elf32_phdr) > size - e.e_phoff) {
		pr_err("multiboot: bad ELF32 header (machine %u, type %u, %u program headers)\n",
		       e.e_machine, e.e_type, e.e_phnum);
		return -EINVAL;
	}
	/* Check every segment before writing any. */
	for (int pass = 0; pass < 2; pass++) {
		for (u16 i = 0; i < e.e_phnum; i++) {
			struct elf32_phdr ph;

			memcpy(&ph, img + e.e_phoff + i * sizeof(ph),
			       sizeof(ph));
			if (ph.p_type != PT_LOAD || !ph.p_memsz)
				continue;
			r = pass ? seg_load(mem, limit, ph.p_paddr,
					    img + ph.p_offset, ph.p_filesz,
					    ph.p_memsz) :
				   seg_ok(ph.p_paddr, ph.p_memsz, ph.p_offset,
					  ph.p_filesz, size, limit);
			if (r)
				return r;
			if (!pass)
				continue;
			note(o, ph.p_paddr, (u64)ph.p_paddr + ph.p_memsz);
		}
	}
	if (!o->end) {
		pr_err("multiboot: the ELF32 image has nothing to load\n");
		return -EINVAL;
	}
	o->entry = e.e_entry;
	return 0;
}

int mb_load(const void *img, size_t size, void *mem_host, u64 limit,
	    struct mb_load_info *out)
{
	const u8 *p = img;
	long hoff = mb_find_header(img, size);
	struct mb_header h;
	struct elf_load_info ei;

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
	if (p[EI_CLASS] == ELFCLASS32)
		return load_elf32(p, size, mem_host, limit, out);
	if (elf_load_limit(img, size, mem_host, limit, limit, &ei))
		return -EINVAL;
	if (ei.entry.v >> 32) {
		pr_err("multiboot: entry %#llx is above 4 GiB\n",
		       (unsigned long long)ei.entry.v);
		return -EINVAL;
	}
	out->entry = (u32)ei.entry.v;
	note(out, ei.lowest.v, ei.end.v); /* all at or above 1 MiB */
	return 0;
}
