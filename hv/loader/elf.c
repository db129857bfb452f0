// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/elf.c - validate an ELF64 guest image completely, then copy its
 * PT_LOAD segments into guest memory (nothing is written on any error). */
#include "arch/errno.h"
#include "hv/loader/elf.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/place.h"
#include "include/minhv/guest_layout.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"
#include "hv/log.h"

#define ELF_MAX_PHNUM 256 /* overlap check is quadratic; guests need few */

/* [off, off + len) lies inside a file of size bytes, without overflow. */
static bool in_file(u64 off, u64 len, u64 size)
{
	u64 end;

	return !__builtin_add_overflow(off, len, &end) && end <= size;
}

bool elf_detect(const void *img, size_t size)
{
	const u8 *id = img;

	return img && size >= EI_NIDENT && id[0] == ELFMAG0 && id[1] == 'E' &&
	       id[2] == 'L' && id[3] == 'F' && id[EI_CLASS] == ELFCLASS64;
}

static int check_ident(const struct elf64_ehdr *eh)
{
	const u8 *id = eh->e_ident;

	if (id[0] != ELFMAG0 || id[1] != 'E' || id[2] != 'L' || id[3] != 'F') {
		pr_err("elf: bad magic %02x %02x %02x %02x, not an ELF file\n",
		       id[0], id[1], id[2], id[3]);
		return -EINVAL;
	}
	if (id[EI_CLASS] != ELFCLASS64) {
		pr_err("elf: EI_CLASS is %u, not ELFCLASS64 (2)\n",
		       id[EI_CLASS]);
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

static int check_ehdr(const struct elf64_ehdr *eh, u64 size)
{
	int r = check_ident(eh);

	if (r)
		return r;
	if (eh->e_type != ET_EXEC) {
		pr_err("elf: e_type is %u, not ET_EXEC (2)\n", eh->e_type);
		return -EINVAL;
	}
	if (eh->e_machine != EM_X86_64) {
		pr_err("elf: e_machine is %u, not EM_X86_64 (62)\n",
		       eh->e_machine);
		return -EINVAL;
	}
	if (eh->e_version != EV_CURRENT) {
		pr_err("elf: e_version is %u, not EV_CURRENT (1)\n",
		       eh->e_version);
		return -EINVAL;
	}
	if (eh->e_flags != 0) {
		pr_err("elf: e_flags is %#x, x86-64 defines none\n",
		       eh->e_flags);
		return -EINVAL;
	}
	if (eh->e_ehsize != sizeof(struct elf64_ehdr)) {
		pr_err("elf: e_ehsize is %u, not %zu\n", eh->e_ehsize,
		       sizeof(struct elf64_ehdr));
		return -EINVAL;
	}
	if (eh->e_phentsize != sizeof(struct elf64_phdr)) {
		pr_err("elf: e_phentsize is %u, not %zu\n", eh->e_phentsize,
		       sizeof(struct elf64_phdr));
		return -EINVAL;
	}
	if (eh->e_phnum == 0) {
		pr_err("elf: no program headers, nothing to load\n");
		return -EINVAL;
	}
	if (eh->e_phnum > ELF_MAX_PHNUM) {
		pr_err("elf: e_phnum is %u, more than the %u supported\n",
		       eh->e_phnum, ELF_MAX_PHNUM);
		return -EINVAL;
	}
	if (!in_file(eh->e_phoff, (u64)eh->e_phnum * sizeof(struct elf64_phdr),
		     size)) {
		pr_err("elf: program headers (phoff %#llx, %u entries) run past the end of the %llu-byte file\n",
		       (unsigned long long)eh->e_phoff, eh->e_phnum,
		       (unsigned long long)size);
		return -EINVAL;
	}
	if (eh->e_shnum != 0 && eh->e_shentsize != ELF64_SHDR_SIZE) {
		pr_err("elf: e_shentsize is %u, not %u\n", eh->e_shentsize,
		       ELF64_SHDR_SIZE);
		return -EINVAL;
	}
	if (!in_file(eh->e_shoff, (u64)eh->e_shnum * ELF64_SHDR_SIZE, size)) {
		pr_err("elf: section headers (shoff %#llx, %u entries) run past the end of the %llu-byte file\n",
		       (unsigned long long)eh->e_shoff, eh->e_shnum,
		       (unsigned long long)size);
		return -EINVAL;
	}
	if (eh->e_shnum != 0 && eh->e_shstrndx >= eh->e_shnum) {
		pr_err("elf: e_shstrndx %u is not below e_shnum %u\n",
		       eh->e_shstrndx, eh->e_shnum);
		return -EINVAL;
	}
	return 0;
}

static const struct elf64_phdr *phdr(const u8 *img, const struct elf64_ehdr *eh,
				     unsigned int i)
{
	return (const struct elf64_phdr *)(img + eh->e_phoff +
					   (u64)i * sizeof(struct elf64_phdr));
}

/* One PT_LOAD on its own: file range, memory range, identity mapping. */
static int check_load(const struct elf64_phdr *ph, unsigned int i, u64 size,
		      u64 limit)
{
	const struct place_win w = { GUEST_IMAGE_MIN_GPA, limit };

	if (ph->p_filesz > ph->p_memsz) {
		pr_err("elf: segment %u: p_filesz %#llx exceeds p_memsz %#llx\n",
		       i, (unsigned long long)ph->p_filesz,
		       (unsigned long long)ph->p_memsz);
		return -EINVAL;
	}
	if (!in_file(ph->p_offset, ph->p_filesz, size)) {
		pr_err("elf: segment %u: file bytes [%#llx + %#llx] run past the end of the %llu-byte file\n",
		       i, (unsigned long long)ph->p_offset,
		       (unsigned long long)ph->p_filesz,
		       (unsigned long long)size);
		return -EINVAL;
	}
	if (ph->p_vaddr != ph->p_paddr) {
		pr_err("elf: segment %u: p_vaddr %#llx != p_paddr %#llx, guests are identity-mapped\n",
		       i, (unsigned long long)ph->p_vaddr,
		       (unsigned long long)ph->p_paddr);
		return -EINVAL;
	}
	if (!place_fits(&w, ph->p_paddr, ph->p_memsz)) {
		pr_err("elf: segment %u: [%#llx + %#llx] is outside guest memory for the image [%#llx, %#llx)\n",
		       i, (unsigned long long)ph->p_paddr,
		       (unsigned long long)ph->p_memsz, GUEST_IMAGE_MIN_GPA,
		       (unsigned long long)limit);
		return -EFAULT;
	}
	return 0;
}

static bool overlaps(const struct elf64_phdr *a, const struct elf64_phdr *b)
{
	return a->p_paddr < b->p_paddr + b->p_memsz &&
	       b->p_paddr < a->p_paddr + a->p_memsz;
}

/* All program headers: each PT_LOAD valid, no two overlapping, the entry
 * inside an executable one. Fills out->lowest, out->end. */
static int check_phdrs(const u8 *img, const struct elf64_ehdr *eh, u64 size,
		       u64 limit, struct elf_load_info *out)
{
	u64 lo = ~0ULL, hi = 0;
	bool entry_ok = false;
	unsigned int i, j, nload = 0;
	int r;

	for (i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *ph = phdr(img, eh, i);

		if (ph->p_type != PT_LOAD)
			continue;
		r = check_load(ph, i, size, limit);
		if (r)
			return r;
		if (ph->p_memsz == 0)
			continue;
		for (j = 0; j < i; j++) {
			const struct elf64_phdr *o = phdr(img, eh, j);

			if (o->p_type == PT_LOAD && o->p_memsz &&
			    overlaps(ph, o)) {
				pr_err("elf: segment %u [%#llx + %#llx] overlaps segment %u [%#llx + %#llx]\n",
				       i, (unsigned long long)ph->p_paddr,
				       (unsigned long long)ph->p_memsz, j,
				       (unsigned long long)o->p_paddr,
				       (unsigned long long)o->p_memsz);
				return -EINVAL;
			}
		}
		nload++;
		if (ph->p_paddr < lo)
			lo = ph->p_paddr;
		if (ph->p_paddr + ph->p_memsz > hi)
			hi = ph->p_paddr + ph->p_memsz;
		if ((ph->p_flags & PF_X) && eh->e_entry >= ph->p_paddr &&
		    eh->e_entry - ph->p_paddr < ph->p_memsz)
			entry_ok = true;
	}
	if (nload == 0) {
		pr_err("elf: no non-empty PT_LOAD segment among %u program headers\n",
		       eh->e_phnum);
		return -EINVAL;
	}
	if (!entry_ok) {
		pr_err("elf: entry point %#llx is not inside an executable PT_LOAD segment\n",
		       (unsigned long long)eh->e_entry);
		return -EINVAL;
	}
	out->entry = gpa(eh->e_entry);
	out->lowest = gpa(lo);
	out->end = gpa(hi);
	return 0;
}

int elf_load_limit(const void *img, size_t size, void *mem_host, u64 mem_size,
		   u64 image_limit, struct elf_load_info *out)
{
	const struct elf64_ehdr *eh = img;
	const struct place_mem m = { mem_host, mem_size };
	const struct place_win w = { GUEST_IMAGE_MIN_GPA, image_limit };
	struct elf_load_info info;
	unsigned int i;
	int r;

	if (!img || size < sizeof(*eh)) {
		pr_err("elf: image is %zu bytes, smaller than an ELF64 header (%zu)\n",
		       img ? size : 0, sizeof(*eh));
		return -EINVAL;
	}
	if (image_limit > mem_size) {
		pr_err("elf: image limit %#llx is beyond guest memory (%#llx bytes)\n",
		       (unsigned long long)image_limit,
		       (unsigned long long)mem_size);
		return -EFAULT;
	}
	r = check_ehdr(eh, size);
	if (!r)
		r = check_phdrs(img, eh, size, image_limit, &info);
	if (r)
		return r;

	/* Every segment was checked above: place_dst() cannot refuse one
	 * now, so nothing is written unless all of them fit. */
	for (i = 0; i < eh->e_phnum; i++) {
		const struct elf64_phdr *ph = phdr(img, eh, i);
		u8 *dst;

		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		dst = place_dst(&m, &w, ph->p_paddr, ph->p_memsz);
		if (!dst)
			return -EFAULT;
		memcpy(dst, (const u8 *)img + ph->p_offset, ph->p_filesz);
		memset(dst + ph->p_filesz, 0, ph->p_memsz - ph->p_filesz);
	}
	*out = info;
	return 0;
}

int elf_load(const void *img, size_t size, void *mem_host, u64 mem_size,
	     struct elf_load_info *out)
{
	u64 limit = mem_size > GUEST_STACK_AREA ? mem_size - GUEST_STACK_AREA :
						  0;

	return elf_load_limit(img, size, mem_host, mem_size, limit, out);
}
