// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/elf.c - the one ELF loader, for ELF32 and ELF64 executables:
 * validate the image completely under the caller's policy, then copy its
 * PT_LOAD segments into guest memory (nothing is written on any error).
 * Both classes are widened to one form and pass the same checks. */
#include "arch/errno.h"
#include "hv/loader/elf.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/place.h"
#include "include/minhv/guest_layout.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"
#include "hv/log.h"

#define ELF_MAX_PHNUM 256 /* overlap check is quadratic; guests need few */

/* What differs between the classes besides the field widths. Names are
 * arrays, not pointers: a pointer in the EFI image costs a relocation. */
struct elf_class {
	u8 bits;
	u16 machine;
	char machine_name[10], arch[7];
	u16 ehsize, phentsize, shentsize;
};

/* clang-format off */
static const struct elf_class class32 = {
	32, EM_386, "EM_386", "i386",
	sizeof(struct elf32_ehdr), sizeof(struct elf32_phdr), ELF32_SHDR_SIZE
};
static const struct elf_class class64 = {
	64, EM_X86_64, "EM_X86_64", "x86-64",
	sizeof(struct elf64_ehdr), sizeof(struct elf64_phdr), ELF64_SHDR_SIZE
};
/* clang-format on */

/* A file header of either class, widened (e_ident stays in the image). */
struct ehdr {
	u16 type, machine;
	u32 version, flags;
	u64 entry, phoff, shoff;
	u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

/* A program header of either class, widened. */
struct phdr {
	u32 type, flags;
	u64 offset, vaddr, paddr, filesz, memsz;
};

/* One image being loaded. */
struct elf_img {
	const u8 *img;
	u64 size;
	const struct elf_class *cls;
	struct ehdr eh;
	const struct elf_policy *pol;
};

/* Either class's header or program header, field by field into the
 * widened form (the classes order the fields differently). */
#define EHDR_OF(e)                                    \
	((struct ehdr){ .type = (e).e_type,           \
			.machine = (e).e_machine,     \
			.version = (e).e_version,     \
			.flags = (e).e_flags,         \
			.entry = (e).e_entry,         \
			.phoff = (e).e_phoff,         \
			.shoff = (e).e_shoff,         \
			.ehsize = (e).e_ehsize,       \
			.phentsize = (e).e_phentsize, \
			.phnum = (e).e_phnum,         \
			.shentsize = (e).e_shentsize, \
			.shnum = (e).e_shnum,         \
			.shstrndx = (e).e_shstrndx })
#define PHDR_OF(p)                              \
	((struct phdr){ .type = (p).p_type,     \
			.flags = (p).p_flags,   \
			.offset = (p).p_offset, \
			.vaddr = (p).p_vaddr,   \
			.paddr = (p).p_paddr,   \
			.filesz = (p).p_filesz, \
			.memsz = (p).p_memsz })

/* The file header; check_ehdr() has checked the file holds it. */
static void read_ehdr(struct elf_img *im)
{
	if (im->cls == &class64) {
		struct elf64_ehdr e;

		memcpy(&e, im->img, sizeof(e));
		im->eh = EHDR_OF(e);
	} else {
		struct elf32_ehdr e;

		memcpy(&e, im->img, sizeof(e));
		im->eh = EHDR_OF(e);
	}
}

/* Program header i; check_ehdr() has put all of them inside the file. */
static struct phdr read_phdr(const struct elf_img *im, unsigned int i)
{
	const u8 *at = im->img + im->eh.phoff + (u64)i * im->cls->phentsize;

	if (im->cls == &class64) {
		struct elf64_phdr p;

		memcpy(&p, at, sizeof(p));
		return PHDR_OF(p);
	} else {
		struct elf32_phdr p;

		memcpy(&p, at, sizeof(p));
		return PHDR_OF(p);
	}
}

/* [off, off + len) lies inside a file of size bytes, without overflow. */
static bool in_file(u64 off, u64 len, u64 size)
{
	u64 end;

	return !__builtin_add_overflow(off, len, &end) && end <= size;
}

/* Where a segment's bytes go (hv/loader/place.h, the loaders' one range
 * check): the policy's window, or its low window when it has one; NULL
 * when neither holds [paddr, paddr + memsz). */
static const struct place_win *seg_window(const struct elf_policy *pol,
					  struct place_win w[2], u64 paddr,
					  u64 memsz)
{
	w[0] = (struct place_win){ pol->min, pol->limit };
	w[1] = (struct place_win){ pol->low_min, pol->low_end };
	if (place_fits(&w[0], paddr, memsz))
		return &w[0];
	if (pol->low_end && place_fits(&w[1], paddr, memsz))
		return &w[1];
	return NULL;
}

/* e_ident: the magic, a class the policy takes, little-endian, version 1,
 * System V or GNU; sets im->cls. */
static int check_ident(struct elf_img *im)
{
	const u8 *id = im->img;

	if (id[0] != ELFMAG0 || id[1] != 'E' || id[2] != 'L' || id[3] != 'F') {
		pr_err("elf: bad magic %02x %02x %02x %02x, not an ELF file\n",
		       id[0], id[1], id[2], id[3]);
		return -EINVAL;
	}
	if (id[EI_CLASS] == ELFCLASS64) {
		im->cls = &class64;
	} else if (id[EI_CLASS] == ELFCLASS32 && im->pol->elf32) {
		im->cls = &class32;
	} else {
		pr_err("elf: EI_CLASS is %u, not %sELFCLASS64 (2)\n",
		       id[EI_CLASS],
		       im->pol->elf32 ? "ELFCLASS32 (1) or " : "");
		return -EINVAL;
	}
	if (id[EI_DATA] != ELFDATA2LSB) {
		pr_err("elf: EI_DATA is %u, not little-endian (1)\n",
		       id[EI_DATA]);
		return -EINVAL;
	}
	if (id[EI_VERSION] != EV_CURRENT) {
		pr_err("elf: EI_VERSION is %u, not EV_CURRENT (1)\n",
		       id[EI_VERSION]);
		return -EINVAL;
	}
	if (id[EI_OSABI] != ELFOSABI_SYSV && id[EI_OSABI] != ELFOSABI_GNU) {
		pr_err("elf: EI_OSABI is %u, not System V (0) or GNU (3)\n",
		       id[EI_OSABI]);
		return -EINVAL;
	}
	return 0;
}

static int check_ehdr(struct elf_img *im)
{
	const struct elf_class *c;
	const struct ehdr *eh = &im->eh;
	int r = check_ident(im);

	if (r)
		return r;
	c = im->cls;
	if (im->size < c->ehsize) {
		pr_err("elf: image is %llu bytes, smaller than an ELF%u header (%u)\n",
		       (unsigned long long)im->size, c->bits, c->ehsize);
		return -EINVAL;
	}
	read_ehdr(im);
	if (eh->type != ET_EXEC) {
		pr_err("elf: e_type is %u, not ET_EXEC (2)\n", eh->type);
		return -EINVAL;
	}
	if (eh->machine != c->machine) {
		pr_err("elf: e_machine is %u, not %s (%u)\n", eh->machine,
		       c->machine_name, c->machine);
		return -EINVAL;
	}
	if (eh->version != EV_CURRENT) {
		pr_err("elf: e_version is %u, not EV_CURRENT (1)\n",
		       eh->version);
		return -EINVAL;
	}
	if (eh->flags != 0) {
		pr_err("elf: e_flags is %#x, %s defines none\n", eh->flags,
		       c->arch);
		return -EINVAL;
	}
	if (eh->ehsize != c->ehsize) {
		pr_err("elf: e_ehsize is %u, not %u\n", eh->ehsize, c->ehsize);
		return -EINVAL;
	}
	if (eh->phentsize != c->phentsize) {
		pr_err("elf: e_phentsize is %u, not %u\n", eh->phentsize,
		       c->phentsize);
		return -EINVAL;
	}
	if (eh->phnum == 0) {
		pr_err("elf: no program headers, nothing to load\n");
		return -EINVAL;
	}
	if (eh->phnum > ELF_MAX_PHNUM) {
		pr_err("elf: e_phnum is %u, more than the %u supported\n",
		       eh->phnum, ELF_MAX_PHNUM);
		return -EINVAL;
	}
	if (!in_file(eh->phoff, (u64)eh->phnum * c->phentsize, im->size)) {
		pr_err("elf: program headers (phoff %#llx, %u entries) run past the end of the %llu-byte file\n",
		       (unsigned long long)eh->phoff, eh->phnum,
		       (unsigned long long)im->size);
		return -EINVAL;
	}
	if (eh->shnum != 0 && eh->shentsize != c->shentsize) {
		pr_err("elf: e_shentsize is %u, not %u\n", eh->shentsize,
		       c->shentsize);
		return -EINVAL;
	}
	if (!in_file(eh->shoff, (u64)eh->shnum * c->shentsize, im->size)) {
		pr_err("elf: section headers (shoff %#llx, %u entries) run past the end of the %llu-byte file\n",
		       (unsigned long long)eh->shoff, eh->shnum,
		       (unsigned long long)im->size);
		return -EINVAL;
	}
	if (eh->shnum != 0 && eh->shstrndx >= eh->shnum) {
		pr_err("elf: e_shstrndx %u is not below e_shnum %u\n",
		       eh->shstrndx, eh->shnum);
		return -EINVAL;
	}
	return 0;
}

/* One PT_LOAD on its own: file range, identity mapping when the policy
 * wants it, memory range. */
static int check_load(const struct elf_img *im, const struct phdr *ph,
		      unsigned int i)
{
	const struct elf_policy *pol = im->pol;
	struct place_win w[2];

	if (ph->filesz > ph->memsz) {
		pr_err("elf: segment %u: p_filesz %#llx exceeds p_memsz %#llx\n",
		       i, (unsigned long long)ph->filesz,
		       (unsigned long long)ph->memsz);
		return -EINVAL;
	}
	if (!in_file(ph->offset, ph->filesz, im->size)) {
		pr_err("elf: segment %u: file bytes [%#llx + %#llx] run past the end of the %llu-byte file\n",
		       i, (unsigned long long)ph->offset,
		       (unsigned long long)ph->filesz,
		       (unsigned long long)im->size);
		return -EINVAL;
	}
	if (pol->identity && ph->vaddr != ph->paddr) {
		pr_err("elf: segment %u: p_vaddr %#llx != p_paddr %#llx, guests are identity-mapped\n",
		       i, (unsigned long long)ph->vaddr,
		       (unsigned long long)ph->paddr);
		return -EINVAL;
	}
	if (seg_window(pol, w, ph->paddr, ph->memsz))
		return 0;
	if (pol->low_end)
		pr_err("elf: segment %u: [%#llx + %#llx] is outside guest memory for the image [%#llx, %#llx) or [%#llx, %#llx)\n",
		       i, (unsigned long long)ph->paddr,
		       (unsigned long long)ph->memsz,
		       (unsigned long long)pol->min,
		       (unsigned long long)pol->limit,
		       (unsigned long long)pol->low_min,
		       (unsigned long long)pol->low_end);
	else
		pr_err("elf: segment %u: [%#llx + %#llx] is outside guest memory for the image [%#llx, %#llx)\n",
		       i, (unsigned long long)ph->paddr,
		       (unsigned long long)ph->memsz,
		       (unsigned long long)pol->min,
		       (unsigned long long)pol->limit);
	return -EFAULT;
}

/* Both checked by check_load(): the ends do not overflow. */
static bool overlaps(const struct phdr *a, const struct phdr *b)
{
	return a->paddr < b->paddr + b->memsz && b->paddr < a->paddr + a->memsz;
}

/* All program headers: each PT_LOAD valid, no two overlapping, the entry
 * inside an executable one. Fills out->lowest, out->end. */
static int check_phdrs(const struct elf_img *im, struct elf_load_info *out)
{
	const struct ehdr *eh = &im->eh;
	u64 lo = ~0ULL, hi = 0;
	bool entry_ok = false;
	unsigned int i, j, nload = 0;
	int r;

	for (i = 0; i < eh->phnum; i++) {
		const struct phdr ph = read_phdr(im, i);

		if (ph.type != PT_LOAD)
			continue;
		r = check_load(im, &ph, i);
		if (r)
			return r;
		if (ph.memsz == 0)
			continue;
		for (j = 0; j < i; j++) {
			const struct phdr o = read_phdr(im, j);

			if (o.type == PT_LOAD && o.memsz && overlaps(&ph, &o)) {
				pr_err("elf: segment %u [%#llx + %#llx] overlaps segment %u [%#llx + %#llx]\n",
				       i, (unsigned long long)ph.paddr,
				       (unsigned long long)ph.memsz, j,
				       (unsigned long long)o.paddr,
				       (unsigned long long)o.memsz);
				return -EINVAL;
			}
		}
		nload++;
		if (ph.paddr < lo)
			lo = ph.paddr;
		if (ph.paddr + ph.memsz > hi)
			hi = ph.paddr + ph.memsz;
		if ((ph.flags & PF_X) && eh->entry >= ph.paddr &&
		    eh->entry - ph.paddr < ph.memsz)
			entry_ok = true;
	}
	if (nload == 0) {
		pr_err("elf: no non-empty PT_LOAD segment among %u program headers\n",
		       eh->phnum);
		return -EINVAL;
	}
	if (!entry_ok) {
		pr_err("elf: entry point %#llx is not inside an executable PT_LOAD segment\n",
		       (unsigned long long)eh->entry);
		return -EINVAL;
	}
	out->entry = gpa(eh->entry);
	out->lowest = gpa(lo);
	out->end = gpa(hi);
	return 0;
}

bool elf_detect(const void *img, size_t size)
{
	const u8 *id = img;

	return img && size >= EI_NIDENT && id[0] == ELFMAG0 && id[1] == 'E' &&
	       id[2] == 'L' && id[3] == 'F' && id[EI_CLASS] == ELFCLASS64;
}

int elf_load_policy(const void *img, size_t size, void *mem_host, u64 mem_size,
		    const struct elf_policy *pol, struct elf_load_info *out)
{
	struct elf_img im = { img, size, NULL, { 0 }, pol };
	struct elf_load_info info;
	int r;

	/* e_ident first: its class says how long the header is. */
	if (!img || size < EI_NIDENT) {
		pr_err("elf: image is %zu bytes, smaller than an ELF identification (%u)\n",
		       img ? size : 0, EI_NIDENT);
		return -EINVAL;
	}
	if (pol->limit > mem_size || pol->low_end > mem_size) {
		pr_err("elf: image limit %#llx is beyond guest memory (%#llx bytes)\n",
		       (unsigned long long)(pol->limit > mem_size ?
						    pol->limit :
						    pol->low_end),
		       (unsigned long long)mem_size);
		return -EFAULT;
	}
	r = check_ehdr(&im);
	if (!r)
		r = check_phdrs(&im, &info);
	if (r)
		return r;

	/* Every segment was checked above: place_dst() cannot refuse one
	 * now, so nothing is written unless all of them fit. */
	for (unsigned int i = 0; i < im.eh.phnum; i++) {
		const struct phdr ph = read_phdr(&im, i);
		const struct place_mem m = { mem_host, mem_size };
		struct place_win w[2];
		const struct place_win *at;
		u8 *dst;

		if (ph.type != PT_LOAD || ph.memsz == 0)
			continue;
		at = seg_window(pol, w, ph.paddr, ph.memsz);
		dst = at ? place_dst(&m, at, ph.paddr, ph.memsz) : NULL;
		if (!dst)
			return -EFAULT;
		if (pol->placed)
			pol->placed(pol->ctx, ph.paddr, ph.memsz);
		memcpy(dst, im.img + ph.offset, ph.filesz);
		memset(dst + ph.filesz, 0, ph.memsz - ph.filesz);
	}
	*out = info;
	return 0;
}

int elf_load_limit(const void *img, size_t size, void *mem_host, u64 mem_size,
		   u64 image_limit, struct elf_load_info *out)
{
	const struct elf_policy pol = {
		.min = GUEST_IMAGE_MIN_GPA,
		.limit = image_limit,
		.identity = true,
	};

	return elf_load_policy(img, size, mem_host, mem_size, &pol, out);
}

int elf_load(const void *img, size_t size, void *mem_host, u64 mem_size,
	     struct elf_load_info *out)
{
	u64 limit = mem_size > GUEST_STACK_AREA ? mem_size - GUEST_STACK_AREA :
						  0;

	return elf_load_limit(img, size, mem_host, mem_size, limit, out);
}
