// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_elf.c - the ELF loader (hv/loader/elf.c), ELF64 and ELF32:
 * a good image loads exactly, each malformed one is refused with its
 * message and leaves guest memory untouched; the real build/guest.elf
 * loads too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/loader/elf.h"
#include "hv/loader/elf_format.h"
#include "include/minhv/guest_layout.h"
#include "arch/errno.h"
#include "include/minhv/hypercall_abi.h"
#include "tests/doubles/fake_console.h"

#define MEM_SIZE (GUEST_STACK_AREA + 4 * SZ_2M) /* image room: [1M, 8M) */
#define IMG_LIMIT (MEM_SIZE - GUEST_STACK_AREA)
#define PATTERN 0xa5
#define TEXT_GPA 0x100000ULL
#define TEXT_OFF 0x1000
#define TEXT_SZ 0x100
#define DATA_GPA 0x102000ULL
#define DATA_OFF 0x1100
#define DATA_FILESZ 0x80
#define DATA_MEMSZ 0x1000
#define FILE_SZ 0x1200

/* A well-formed image: text (R+X) at 1 MiB, data + bss (R+W) after it. */
struct image {
	union {
		u8 bytes[FILE_SZ];
		struct {
			struct elf64_ehdr eh;
			struct elf64_phdr ph[3];
		};
	};
	size_t size;
};

static u8 *mem;

static void make_image(struct image *im)
{
	struct elf64_ehdr *eh = &im->eh;
	size_t i;

	memset(im, 0, sizeof(*im));
	memcpy(eh->e_ident,
	       "\x7f"
	       "ELF",
	       4);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = TEXT_GPA + 0x10;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(struct elf64_phdr);
	eh->e_phnum = 3;
	im->ph[0] = (struct elf64_phdr){ PT_LOAD,  PF_R | PF_X, TEXT_OFF,
					 TEXT_GPA, TEXT_GPA,	TEXT_SZ,
					 TEXT_SZ,  0x1000 };
	im->ph[1] = (struct elf64_phdr){ PT_LOAD,    PF_R | PF_W, DATA_OFF,
					 DATA_GPA,   DATA_GPA,	  DATA_FILESZ,
					 DATA_MEMSZ, 0x1000 };
	im->ph[2] = (struct elf64_phdr){ .p_type = 0x6474e551 }; /* GNU_STACK */
	for (i = TEXT_OFF; i < FILE_SZ; i++)
		im->bytes[i] = (u8)(i * 7 + 1);
	im->size = FILE_SZ;
}

static int setup(void **s)
{
	(void)s;
	mem = malloc(MEM_SIZE);
	assert_non_null(mem);
	memset(mem, PATTERN, MEM_SIZE);
	fake_console_clear();
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(mem);
	return 0;
}

/* True when mem[from, to) still holds the fill pattern. */
static bool untouched(u64 from, u64 to)
{
	for (u64 i = from; i < to; i++)
		if (mem[i] != PATTERN)
			return false;
	return true;
}

static void test_good_image(void **s)
{
	struct elf_load_info info = { { 1 }, { 1 }, { 1 } };
	struct image im;

	(void)s;
	make_image(&im);
	assert_int_equal(elf_load(im.bytes, im.size, mem, MEM_SIZE, &info), 0);
	assert_int_equal(info.entry.v, TEXT_GPA + 0x10);
	assert_int_equal(info.lowest.v, TEXT_GPA);
	assert_int_equal(info.end.v, DATA_GPA + DATA_MEMSZ);
	assert_memory_equal(mem + TEXT_GPA, im.bytes + TEXT_OFF, TEXT_SZ);
	assert_memory_equal(mem + DATA_GPA, im.bytes + DATA_OFF, DATA_FILESZ);
	for (u64 i = DATA_FILESZ; i < DATA_MEMSZ; i++)
		assert_int_equal(mem[DATA_GPA + i], 0); /* bss zeroed */
	assert_true(untouched(0, TEXT_GPA));
	assert_true(untouched(TEXT_GPA + TEXT_SZ, DATA_GPA));
	assert_true(untouched(DATA_GPA + DATA_MEMSZ, MEM_SIZE));
	assert_string_equal(fake_console_text(), "");
}

/* The limit variant: the same image fits exactly at its end, not 1 below. */
static void test_limit(void **s)
{
	struct elf_load_info info;
	struct image im;

	(void)s;
	make_image(&im);
	assert_int_equal(elf_load_limit(im.bytes, im.size, mem, MEM_SIZE,
					DATA_GPA + DATA_MEMSZ - 1, &info),
			 -EFAULT);
	assert_true(untouched(0, MEM_SIZE));
	assert_int_equal(elf_load_limit(im.bytes, im.size, mem, MEM_SIZE,
					DATA_GPA + DATA_MEMSZ, &info),
			 0);
	assert_int_equal(info.end.v, DATA_GPA + DATA_MEMSZ);
	assert_int_equal(elf_load_limit(im.bytes, im.size, mem, MEM_SIZE,
					MEM_SIZE + 1, &info),
			 -EFAULT);
}

/* A memory too small for the default stack area takes no image at all. */
static void test_small_memory(void **s)
{
	struct elf_load_info info;
	struct image im;

	(void)s;
	make_image(&im);
	assert_int_equal(elf_load(im.bytes, im.size, mem, GUEST_STACK_AREA,
				  &info),
			 -EFAULT);
	assert_true(fake_console_has("outside guest memory"));
	assert_true(untouched(0, MEM_SIZE));
}

/* One malformed image: a change to the good one, the error, the message. */
struct bad_case {
	void (*mutate)(struct image *im);
	int err;
	const char *msg;
	const char *name;
};

static void run_bad(void **s)
{
	const struct bad_case *c = *s;
	struct elf_load_info info = { { 7 }, { 7 }, { 7 } };
	struct image im;

	make_image(&im);
	c->mutate(&im);
	assert_int_equal(elf_load(im.bytes, im.size, mem, MEM_SIZE, &info),
			 c->err);
	if (!fake_console_has(c->msg))
		fail_msg("expected \"%s\" in \"%s\"", c->msg,
			 fake_console_text());
	/* Exactly one line, at error level. */
	assert_true(strncmp(fake_console_text(), "error: elf: ", 12) == 0);
	assert_ptr_equal(strchr(fake_console_text(), '\n'),
			 fake_console_text() + strlen(fake_console_text()) - 1);
	assert_true(untouched(0, MEM_SIZE));
	assert_int_equal(info.entry.v, 7); /* out untouched too */
}

#define M(name, body)                      \
	static void name(struct image *im) \
	{                                  \
		body;                      \
	}
M(truncated_header, im->size = sizeof(struct elf64_ehdr) - 1)
M(bad_magic, im->eh.e_ident[3] = 'G')
M(bad_class, im->eh.e_ident[EI_CLASS] = 1)
M(big_endian, im->eh.e_ident[EI_DATA] = 2)
M(bad_ident_version, im->eh.e_ident[EI_VERSION] = 0)
M(bad_osabi, im->eh.e_ident[EI_OSABI] = 9)
M(type_dyn, im->eh.e_type = 3)
M(machine_i386, im->eh.e_machine = 3)
M(bad_version, im->eh.e_version = 2)
M(bad_flags, im->eh.e_flags = 1)
M(bad_ehsize, im->eh.e_ehsize = 52)
M(bad_phentsize, im->eh.e_phentsize = 32)
M(phnum_zero, im->eh.e_phnum = 0)
M(phnum_xnum, im->eh.e_phnum = PN_XNUM)
M(phoff_outside, im->eh.e_phoff = FILE_SZ - 100)
M(phoff_overflow, im->eh.e_phoff = ~0ULL - 8)
M(shoff_outside, {
	im->eh.e_shoff = FILE_SZ - 64;
	im->eh.e_shnum = 2;
	im->eh.e_shentsize = 64;
})
M(shoff_overflow, {
	im->eh.e_shoff = ~0ULL - 8;
	im->eh.e_shnum = 1;
	im->eh.e_shentsize = 64;
})
M(bad_shentsize, {
	im->eh.e_shoff = 0x100;
	im->eh.e_shnum = 1;
	im->eh.e_shentsize = 40;
})
M(bad_shstrndx, {
	im->eh.e_shoff = 0x100;
	im->eh.e_shnum = 1;
	im->eh.e_shentsize = 64;
	im->eh.e_shstrndx = 1;
})
M(filesz_gt_memsz, im->ph[1].p_filesz = DATA_MEMSZ + 1)
M(segment_past_file, im->ph[1].p_filesz = FILE_SZ - DATA_OFF + 1)
M(truncated_file, im->size = DATA_OFF + DATA_FILESZ - 1)
M(offset_overflow, { im->ph[0].p_offset = ~0ULL - 0x10; })
M(vaddr_ne_paddr, im->ph[0].p_vaddr += 0x1000)
M(below_1m, {
	im->ph[0].p_paddr = im->ph[0].p_vaddr = 0xff000;
	im->eh.e_entry = 0xff010;
})
M(beyond_memory,
  { im->ph[1].p_paddr = im->ph[1].p_vaddr = IMG_LIMIT - DATA_MEMSZ + 1; })
M(in_stack_area, { im->ph[1].p_paddr = im->ph[1].p_vaddr = IMG_LIMIT; })
M(paddr_overflow, { im->ph[1].p_paddr = im->ph[1].p_vaddr = ~0ULL - 0x10; })
M(overlap, { im->ph[1].p_paddr = im->ph[1].p_vaddr = TEXT_GPA + TEXT_SZ - 1; })
M(overlap_inside, {
	im->ph[1].p_paddr = im->ph[1].p_vaddr = TEXT_GPA + 0x10;
	im->ph[1].p_filesz = im->ph[1].p_memsz = 0x10;
})
M(entry_outside, im->eh.e_entry = TEXT_GPA + TEXT_SZ)
M(entry_in_data, im->eh.e_entry = DATA_GPA)
M(entry_not_exec, im->ph[0].p_flags = PF_R)
M(no_pt_load, {
	im->ph[0].p_type = 4;
	im->ph[1].p_type = 4;
})
M(only_empty_load, {
	im->ph[0].p_type = 4;
	im->ph[1].p_filesz = 0;
	im->ph[1].p_memsz = 0;
})

#define BAD(fn, e, m)               \
	{                           \
		fn, -HC_##e, m, #fn \
	}
static const struct bad_case cases[] = {
	BAD(truncated_header, EINVAL, "smaller than an ELF64 header"),
	BAD(bad_magic, EINVAL, "bad magic 7f 45 4c 47"),
	BAD(bad_class, EINVAL, "EI_CLASS is 1, not ELFCLASS64"),
	BAD(big_endian, EINVAL, "EI_DATA is 2, not little-endian"),
	BAD(bad_ident_version, EINVAL, "EI_VERSION is 0"),
	BAD(bad_osabi, EINVAL, "EI_OSABI is 9"),
	BAD(type_dyn, EINVAL, "e_type is 3, not ET_EXEC"),
	BAD(machine_i386, EINVAL, "e_machine is 3, not EM_X86_64"),
	BAD(bad_version, EINVAL, "e_version is 2"),
	BAD(bad_flags, EINVAL, "e_flags is 0x1"),
	BAD(bad_ehsize, EINVAL, "e_ehsize is 52, not 64"),
	BAD(bad_phentsize, EINVAL, "e_phentsize is 32, not 56"),
	BAD(phnum_zero, EINVAL, "no program headers"),
	BAD(phnum_xnum, EINVAL, "e_phnum is 65535, more than the 256"),
	BAD(phoff_outside, EINVAL,
	    "program headers (phoff 0x119c, 3 entries) run past"),
	BAD(phoff_overflow, EINVAL,
	    "program headers (phoff 0xfffffffffffffff7"),
	BAD(shoff_outside, EINVAL,
	    "section headers (shoff 0x11c0, 2 entries) run past"),
	BAD(shoff_overflow, EINVAL,
	    "section headers (shoff 0xfffffffffffffff7"),
	BAD(bad_shentsize, EINVAL, "e_shentsize is 40, not 64"),
	BAD(bad_shstrndx, EINVAL, "e_shstrndx 1 is not below e_shnum 1"),
	BAD(filesz_gt_memsz, EINVAL,
	    "segment 1: p_filesz 0x1001 exceeds p_memsz 0x1000"),
	BAD(segment_past_file, EINVAL,
	    "segment 1: file bytes [0x1100 + 0x101] run past the end of the 4608-byte file"),
	BAD(truncated_file, EINVAL,
	    "segment 1: file bytes [0x1100 + 0x80] run past the end of the 4479-byte file"),
	BAD(offset_overflow, EINVAL,
	    "segment 0: file bytes [0xffffffffffffffef + 0x100] run past"),
	BAD(vaddr_ne_paddr, EINVAL,
	    "segment 0: p_vaddr 0x101000 != p_paddr 0x100000"),
	BAD(below_1m, EFAULT,
	    "segment 0: [0xff000 + 0x100] is outside guest memory for the image [0x100000, 0x800000)"),
	BAD(beyond_memory, EFAULT,
	    "segment 1: [0x7ff001 + 0x1000] is outside guest memory"),
	BAD(in_stack_area, EFAULT,
	    "segment 1: [0x800000 + 0x1000] is outside guest memory"),
	BAD(paddr_overflow, EFAULT,
	    "segment 1: [0xffffffffffffffef + 0x1000] is outside"),
	BAD(overlap, EINVAL,
	    "segment 1 [0x1000ff + 0x1000] overlaps segment 0 [0x100000 + 0x100]"),
	BAD(overlap_inside, EINVAL,
	    "segment 1 [0x100010 + 0x10] overlaps segment 0 [0x100000 + 0x100]"),
	BAD(entry_outside, EINVAL,
	    "entry point 0x100100 is not inside an executable PT_LOAD"),
	BAD(entry_in_data, EINVAL,
	    "entry point 0x102000 is not inside an executable"),
	BAD(entry_not_exec, EINVAL,
	    "entry point 0x100010 is not inside an executable"),
	BAD(no_pt_load, EINVAL,
	    "no non-empty PT_LOAD segment among 3 program headers"),
	BAD(only_empty_load, EINVAL, "no non-empty PT_LOAD segment"),
};

/* ELF32 through the same loader, under a multiboot-like policy: ELF32
 * taken, p_vaddr free, segments in [1 MiB, IMG_LIMIT) or the low window
 * [LOW_MIN, LOW_END). The same image layout as the ELF64 one. */
#define LOW_MIN 0x1000ULL
#define LOW_END 0x9fc00ULL
struct image32 {
	union {
		u8 bytes[FILE_SZ];
		struct {
			struct elf32_ehdr eh;
			struct elf32_phdr ph[3];
		};
	};
	size_t size;
};

static const struct elf_policy pol32 = {
	.elf32 = true,
	.min = TEXT_GPA,
	.limit = IMG_LIMIT,
	.low_min = LOW_MIN,
	.low_end = LOW_END,
};

static void make_image32(struct image32 *im)
{
	struct elf32_ehdr *eh = &im->eh;
	size_t i;

	memset(im, 0, sizeof(*im));
	memcpy(eh->e_ident,
	       "\x7f"
	       "ELF",
	       4);
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_386;
	eh->e_version = EV_CURRENT;
	eh->e_entry = TEXT_GPA + 0x10;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(struct elf32_phdr);
	eh->e_phnum = 3;
	/* A higher-half kernel: p_vaddr is not p_paddr, which multiboot
	 * allows (segments go to p_paddr). */
	im->ph[0] = (struct elf32_phdr){ .p_type = PT_LOAD,
					 .p_offset = TEXT_OFF,
					 .p_vaddr = 0xc0000000 + TEXT_GPA,
					 .p_paddr = TEXT_GPA,
					 .p_filesz = TEXT_SZ,
					 .p_memsz = TEXT_SZ,
					 .p_flags = PF_R | PF_X,
					 .p_align = 0x1000 };
	im->ph[1] = (struct elf32_phdr){ .p_type = PT_LOAD,
					 .p_offset = DATA_OFF,
					 .p_vaddr = DATA_GPA,
					 .p_paddr = DATA_GPA,
					 .p_filesz = DATA_FILESZ,
					 .p_memsz = DATA_MEMSZ,
					 .p_flags = PF_R | PF_W,
					 .p_align = 0x1000 };
	im->ph[2] = (struct elf32_phdr){ .p_type = 0x6474e551 }; /* GNU_STACK */
	for (i = TEXT_OFF; i < FILE_SZ; i++)
		im->bytes[i] = (u8)(i * 5 + 3);
	im->size = FILE_SZ;
}

static void test_elf32_good(void **s)
{
	struct elf_load_info info;
	struct image32 im;

	(void)s;
	make_image32(&im);
	assert_int_equal(elf_load_policy(im.bytes, im.size, mem, MEM_SIZE,
					 &pol32, &info),
			 0);
	assert_int_equal(info.entry.v, TEXT_GPA + 0x10);
	assert_int_equal(info.lowest.v, TEXT_GPA);
	assert_int_equal(info.end.v, DATA_GPA + DATA_MEMSZ);
	assert_memory_equal(mem + TEXT_GPA, im.bytes + TEXT_OFF, TEXT_SZ);
	assert_memory_equal(mem + DATA_GPA, im.bytes + DATA_OFF, DATA_FILESZ);
	for (u64 i = DATA_FILESZ; i < DATA_MEMSZ; i++)
		assert_int_equal(mem[DATA_GPA + i], 0);
	assert_true(untouched(0, TEXT_GPA));
	assert_true(untouched(TEXT_GPA + TEXT_SZ, DATA_GPA));
	assert_true(untouched(DATA_GPA + DATA_MEMSZ, MEM_SIZE));
	assert_string_equal(fake_console_text(), "");
	/* A text segment in the low window (kvm-unit-tests' realmode). */
	make_image32(&im);
	im.ph[0].p_paddr = 0x8000;
	im.eh.e_entry = 0x8000;
	assert_int_equal(elf_load_policy(im.bytes, im.size, mem, MEM_SIZE,
					 &pol32, &info),
			 0);
	assert_int_equal(info.lowest.v, 0x8000);
	assert_memory_equal(mem + 0x8000, im.bytes + TEXT_OFF, TEXT_SZ);
}

/* The ELF64 guest's loader takes no ELF32, and a policy without ELF32
 * names only ELFCLASS64. */
static void test_elf32_not_for_elf64(void **s)
{
	struct elf_load_info info;
	struct image32 im;

	(void)s;
	make_image32(&im);
	assert_int_equal(elf_load(im.bytes, im.size, mem, MEM_SIZE, &info),
			 -EINVAL);
	assert_true(fake_console_has("EI_CLASS is 1, not ELFCLASS64 (2)"));
	assert_true(untouched(0, MEM_SIZE));
}

struct bad32_case {
	void (*mutate)(struct image32 *im);
	int err;
	const char *msg;
	const char *name;
};

static void run_bad32(void **s)
{
	const struct bad32_case *c = *s;
	struct elf_load_info info = { { 7 }, { 7 }, { 7 } };
	struct image32 im;

	make_image32(&im);
	c->mutate(&im);
	assert_int_equal(elf_load_policy(im.bytes, im.size, mem, MEM_SIZE,
					 &pol32, &info),
			 c->err);
	if (!fake_console_has(c->msg))
		fail_msg("expected \"%s\" in \"%s\"", c->msg,
			 fake_console_text());
	assert_true(strncmp(fake_console_text(), "error: elf: ", 12) == 0);
	assert_ptr_equal(strchr(fake_console_text(), '\n'),
			 fake_console_text() + strlen(fake_console_text()) - 1);
	assert_true(untouched(0, MEM_SIZE));
	assert_int_equal(info.entry.v, 7);
}

#define M32(name, body)                      \
	static void name(struct image32 *im) \
	{                                    \
		body;                        \
	}
M32(e32_truncated_header, im->size = sizeof(struct elf32_ehdr) - 1)
M32(e32_bad_class, im->eh.e_ident[EI_CLASS] = 3)
M32(e32_machine_x86_64, im->eh.e_machine = EM_X86_64)
M32(e32_bad_flags, im->eh.e_flags = 2)
M32(e32_bad_ehsize, im->eh.e_ehsize = 64)
M32(e32_bad_phentsize, im->eh.e_phentsize = 56)
M32(e32_bad_shentsize, {
	im->eh.e_shoff = 0x100;
	im->eh.e_shnum = 1;
	im->eh.e_shentsize = 64;
})
M32(e32_phoff_outside, im->eh.e_phoff = FILE_SZ - 64)
M32(e32_filesz_gt_memsz, im->ph[1].p_filesz = DATA_MEMSZ + 1)
M32(e32_segment_past_file, im->ph[1].p_filesz = FILE_SZ - DATA_OFF + 1)
M32(e32_offset_past_file, im->ph[0].p_offset = 0xffffff00)
M32(e32_overlap, im->ph[1].p_paddr = TEXT_GPA + TEXT_SZ - 1)
M32(e32_overlap_inside, {
	im->ph[1].p_paddr = TEXT_GPA + 0x10;
	im->ph[1].p_filesz = im->ph[1].p_memsz = 0x10;
})
M32(e32_beyond_memory, im->ph[1].p_paddr = IMG_LIMIT - DATA_MEMSZ + 1)
M32(e32_between_windows, {
	im->ph[0].p_paddr = LOW_END - 0x10; /* ends past the low window */
	im->eh.e_entry = LOW_END - 0x10;
})
M32(e32_page0, {
	im->ph[0].p_paddr = 0;
	im->eh.e_entry = 0x10;
})
/* 0xffffff00 + 0x200 is 0x100 in 32 bits: refused, not taken as low. */
M32(e32_paddr_wraps, {
	im->ph[1].p_paddr = 0xffffff00;
	im->ph[1].p_memsz = 0x200;
	im->ph[1].p_filesz = 0x80;
})
M32(e32_entry_outside, im->eh.e_entry = DATA_GPA)
M32(e32_entry_not_exec, im->ph[0].p_flags = PF_R)
M32(e32_no_pt_load, {
	im->ph[0].p_type = 4;
	im->ph[1].p_type = 4;
})

#define BAD32(fn, e, m)             \
	{                           \
		fn, -HC_##e, m, #fn \
	}
static const struct bad32_case cases32[] = {
	BAD32(e32_truncated_header, EINVAL,
	      "image is 51 bytes, smaller than an ELF32 header (52)"),
	BAD32(e32_bad_class, EINVAL,
	      "EI_CLASS is 3, not ELFCLASS32 (1) or ELFCLASS64 (2)"),
	BAD32(e32_machine_x86_64, EINVAL, "e_machine is 62, not EM_386 (3)"),
	BAD32(e32_bad_flags, EINVAL, "e_flags is 0x2, i386 defines none"),
	BAD32(e32_bad_ehsize, EINVAL, "e_ehsize is 64, not 52"),
	BAD32(e32_bad_phentsize, EINVAL, "e_phentsize is 56, not 32"),
	BAD32(e32_bad_shentsize, EINVAL, "e_shentsize is 64, not 40"),
	BAD32(e32_phoff_outside, EINVAL,
	      "program headers (phoff 0x11c0, 3 entries) run past"),
	BAD32(e32_filesz_gt_memsz, EINVAL,
	      "segment 1: p_filesz 0x1001 exceeds p_memsz 0x1000"),
	BAD32(e32_segment_past_file, EINVAL,
	      "segment 1: file bytes [0x1100 + 0x101] run past the end"),
	BAD32(e32_offset_past_file, EINVAL,
	      "segment 0: file bytes [0xffffff00 + 0x100] run past the end"),
	BAD32(e32_overlap, EINVAL,
	      "segment 1 [0x1000ff + 0x1000] overlaps segment 0 [0x100000 + 0x100]"),
	BAD32(e32_overlap_inside, EINVAL,
	      "segment 1 [0x100010 + 0x10] overlaps segment 0"),
	BAD32(e32_beyond_memory, EFAULT,
	      "segment 1: [0x7ff001 + 0x1000] is outside guest memory for the image [0x100000, 0x800000) or [0x1000, 0x9fc00)"),
	BAD32(e32_between_windows, EFAULT,
	      "segment 0: [0x9fbf0 + 0x100] is outside guest memory"),
	BAD32(e32_page0, EFAULT, "segment 0: [0 + 0x100] is outside"),
	BAD32(e32_paddr_wraps, EFAULT,
	      "segment 1: [0xffffff00 + 0x200] is outside guest memory"),
	BAD32(e32_entry_outside, EINVAL,
	      "entry point 0x102000 is not inside an executable PT_LOAD"),
	BAD32(e32_entry_not_exec, EINVAL,
	      "entry point 0x100010 is not inside an executable"),
	BAD32(e32_no_pt_load, EINVAL,
	      "no non-empty PT_LOAD segment among 3 program headers"),
};

/* The image the Makefile builds from guest/ loads, byte for byte. */
static void test_real_guest(void **s)
{
	struct elf_load_info info;
	struct elf64_ehdr eh;
	FILE *f = fopen("build/guest.elf", "rb");
	u8 *img;
	long n;

	(void)s;
	if (!f)
		skip();
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	img = malloc((size_t)n);
	assert_non_null(img);
	assert_int_equal(fread(img, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	assert_int_equal(elf_load(img, (size_t)n, mem, MEM_SIZE, &info), 0);
	memcpy(&eh, img, sizeof(eh));
	assert_int_equal(info.entry.v, eh.e_entry);
	assert_int_equal(info.lowest.v, GUEST_IMAGE_MIN_GPA);
	assert_true(info.end.v > info.entry.v);
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		struct elf64_phdr ph;

		memcpy(&ph, img + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD)
			continue;
		assert_memory_equal(mem + ph.p_paddr, img + ph.p_offset,
				    ph.p_filesz);
		for (u64 b = ph.p_filesz; b < ph.p_memsz; b++)
			assert_int_equal(mem[ph.p_paddr + b], 0);
	}
	assert_true(untouched(0, GUEST_IMAGE_MIN_GPA));
	assert_true(untouched(info.end.v, MEM_SIZE));
	free(img);
}

#define BAD_TEST(i)                                                        \
	cmocka_unit_test_prestate_setup_teardown(run_bad, setup, teardown, \
						 (void *)&cases[i])

int main(void)
{
	struct CMUnitTest tests[6 + ARRAY_SIZE(cases) + ARRAY_SIZE(cases32)] = {
		cmocka_unit_test_setup_teardown(test_good_image, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_memory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_real_guest, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_elf32_good, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_elf32_not_for_elf64, setup,
						teardown),
	};
	size_t n = 6;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++, n++) {
		tests[n] = (struct CMUnitTest)BAD_TEST(i);
		tests[n].name = cases[i].name;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cases32); i++, n++) {
		tests[n] = (struct CMUnitTest)
			cmocka_unit_test_prestate_setup_teardown(
				run_bad32, setup, teardown,
				(void *)&cases32[i]);
		tests[n].name = cases32[i].name;
	}
	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
