// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_multiboot.c - the loaders' one range check
 * (hv/loader/place.c) with wrapping values, and the multiboot loader on top
 * of it (hv/loader/multiboot.c, multiboot_info.c): a.out-kludge and ELF32
 * images whose ranges wrap or leave guest memory are refused with nothing
 * written; each ELF32 segment is checked on its own (a small low one next
 * to the kernel at 1 MiB loads); module 0 and the boot information go
 * where nothing else is; requirement flags minhv cannot meet and a bad
 * checksum are refused by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/multiboot.h"
#include "hv/loader/place.h"
#include "tests/doubles/fake_console.h"

#define MEM (4ULL << 20)
#define UNTOUCHED 0x5a
#define AOUT_FLAGS (MB_HDR_AOUT_KLUDGE | BIT(1))

static u8 *mem;
static u8 img[0x3000];

static int setup(void **state)
{
	(void)state;
	mem = malloc(MEM);
	assert_non_null(mem);
	memset(mem, UNTOUCHED, MEM);
	memset(img, 0, sizeof(img));
	fake_console_clear();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(mem);
	return 0;
}

static void untouched(void)
{
	u64 i;

	for (i = 0; i < MEM && mem[i] == UNTOUCHED; i++)
		;
	assert_int_equal(i, MEM);
}

static void said(const char *msg)
{
	if (!fake_console_has(msg))
		fail_msg("no '%s' in: %s", msg, fake_console_text());
}

/* --- place.c --------------------------------------------------------- */

static void test_place_fits(void **state)
{
	const struct place_win w = { PLACE_FLOOR, MEM };

	(void)state;
	assert_true(place_fits(&w, PLACE_FLOOR, MEM - PLACE_FLOOR));
	assert_true(place_fits(&w, MEM, 0));
	assert_false(place_fits(&w, PLACE_FLOOR - 1, 1)); /* below the floor */
	assert_false(place_fits(&w, MEM - 1, 2)); /* past the top */
	assert_false(place_fits(&w, MEM + 1, 0));
	/* Sums that wrap past 2^64 land "below" top: refused. */
	assert_false(place_fits(&w, ~0ULL - 0xfff, 0x2000));
	assert_false(place_fits(&w, PLACE_FLOOR, ~0ULL));
	assert_false(place_fits(&w, ~0ULL, 1));
	/* A window upside down holds nothing. */
	assert_false(
		place_fits(&(struct place_win){ MEM, PLACE_FLOOR }, MEM, 0));
}

static void test_place_dst(void **state)
{
	const struct place_mem m = { mem, MEM };
	const struct place_win w = { PLACE_FLOOR, ~0ULL };

	(void)state;
	assert_ptr_equal(place_dst(&m, &w, PLACE_FLOOR, 16), mem + PLACE_FLOOR);
	/* The ceiling is guest memory's top whatever the window says. */
	assert_null(place_dst(&m, &w, MEM - 8, 16));
	assert_null(place_dst(&m, &w, ~0ULL - 0xfff, 0x2000));
	assert_null(place_dst(&(struct place_mem){ NULL, MEM }, &w, PLACE_FLOOR,
			      1));
}

static void test_place_align_up(void **state)
{
	u64 a;

	(void)state;
	assert_true(place_align_up(0x100001, 0x200000, &a));
	assert_int_equal(a, 0x200000);
	assert_true(place_align_up(0x123, 0, &a));
	assert_int_equal(a, 0x123);
	assert_false(place_align_up(~0ULL - 0x1000, 0x200000, &a));
	assert_true(place_align_up(~0ULL - 0x1fffff, 0x200000, &a));
	assert_int_equal(a, ~0ULL - 0x1fffff);
}

/* --- multiboot images ------------------------------------------------ */

/* An a.out-kludge image: the header at 0, loaded at load, file bytes up
 * to load_end (0: the whole file), bss to bss_end. */
static void aout(u32 flags, u32 load, u32 load_end, u32 bss_end)
{
	struct mb_header h = { MB_HEADER_MAGIC,
			       flags,
			       -(MB_HEADER_MAGIC + flags),
			       load,
			       load,
			       load_end,
			       bss_end,
			       load + 0x40 };

	memcpy(img, &h, sizeof(h));
	for (size_t i = sizeof(h); i < sizeof(img); i++)
		img[i] = (u8)(i * 3 + 1);
}

static int load(struct mb_load_info *li)
{
	return mb_load(img, sizeof(img), mem, MEM, li);
}

static void test_aout_loads(void **state)
{
	struct mb_load_info li;

	(void)state;
	aout(AOUT_FLAGS, 0x100000, 0, 0x104000);
	assert_int_equal(load(&li), 0);
	assert_int_equal(li.entry, 0x100040);
	assert_int_equal(li.start, 0x100000);
	assert_int_equal(li.end, 0x104000);
	assert_memory_equal(mem + 0x100000, img, sizeof(img));
	assert_int_equal(mem[0x103fff], 0); /* bss */
	assert_int_equal(mem[0x104000], UNTOUCHED);
}

/* load_addr + size past 4 GiB, or past guest memory: refused, nothing
 * written. */
static void test_aout_wraps(void **state)
{
	struct mb_load_info li;

	(void)state;
	aout(AOUT_FLAGS, 0xfffff000, 0, 0);
	assert_int_equal(load(&li), -EFAULT);
	said("segment [0xfffff000, +0x3000) is outside [1 MiB, 0x400000)");
	untouched();
	aout(AOUT_FLAGS, 0x100000, 0, 0xffffffff); /* bss to 4 GiB */
	assert_int_equal(load(&li), -EFAULT);
	untouched();
	/* Below 1 MiB but not inside conventional memory: refused. */
	aout(AOUT_FLAGS, 0x9f000, 0, 0);
	assert_int_equal(load(&li), -EFAULT);
	aout(AOUT_FLAGS, 0x0, 0, 0); /* page 0 */
	assert_int_equal(load(&li), -EFAULT);
	untouched();
}

/* Spec 3.1.2: bits 0-15 are requirements; minhv meets 0 and 1 only. */
static void test_required_flags(void **state)
{
	struct mb_load_info li;

	(void)state;
	aout(AOUT_FLAGS | BIT(2), 0x100000, 0, 0);
	assert_int_equal(load(&li), -EINVAL);
	said("header flags 0x4 require");
	aout(AOUT_FLAGS | BIT(15), 0x100000, 0, 0);
	assert_int_equal(load(&li), -EINVAL);
	said("header flags 0x8000 require");
	untouched();
	aout(AOUT_FLAGS | BIT(0), 0x100000, 0, 0);
	assert_int_equal(load(&li), 0);
}

static void test_bad_checksum(void **state)
{
	struct mb_load_info li;

	(void)state;
	aout(AOUT_FLAGS, 0x100000, 0, 0);
	img[8] ^= 1;
	assert_int_equal(mb_find_header(img, sizeof(img)), -EBADMSG);
	assert_int_equal(load(&li), -EINVAL);
	said("bad header checksum");
	untouched();
}

struct elf32_ehdr_t {
	u8 e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version, e_entry, e_phoff, e_shoff, e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} __attribute__((packed));

struct elf32_phdr_t {
	u32 p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
		p_align;
} __attribute__((packed));

/* An ELF32 multiboot kernel: the header at 0x80, n segments from segs. */
static void elf32(const struct elf32_phdr_t *segs, u16 n, u32 entry)
{
	struct elf32_ehdr_t e = { .e_type = ET_EXEC,
				  .e_machine = 3, /* EM_386 */
				  .e_version = EV_CURRENT,
				  .e_entry = entry,
				  .e_phoff = 0x100,
				  .e_ehsize = sizeof(e),
				  .e_phentsize = sizeof(struct elf32_phdr_t),
				  .e_phnum = n };
	u32 mb[3] = { MB_HEADER_MAGIC, 2, -(MB_HEADER_MAGIC + 2) };

	memcpy(e.e_ident,
	       "\x7f"
	       "ELF",
	       4);
	e.e_ident[EI_CLASS] = 1;
	e.e_ident[EI_DATA] = ELFDATA2LSB;
	e.e_ident[EI_VERSION] = EV_CURRENT;
	memcpy(img, &e, sizeof(e));
	memcpy(img + 0x80, mb, sizeof(mb));
	memcpy(img + 0x100, segs, n * sizeof(*segs));
	for (size_t i = 0x1000; i < sizeof(img); i++)
		img[i] = (u8)(i * 5 + 3);
}

static void test_elf32_wraps(void **state)
{
	struct elf32_phdr_t ph[2] = {
		{ PT_LOAD, 0x1000, 0x100000, 0x100000, 0x100, 0x100, 5, 0 },
		/* p_paddr + p_memsz wraps 32 bits: to 0x1000 */
		{ PT_LOAD, 0x1000, 0xfffff000, 0xfffff000, 0x100, 0x2000, 6,
		  0 },
	};
	struct mb_load_info li;

	(void)state;
	elf32(ph, 2, 0x100000);
	assert_int_equal(load(&li), -EFAULT);
	said("segment 1: [0xfffff000 + 0x2000] is outside");
	untouched();
	ph[1].p_paddr = 0x200000;
	ph[1].p_memsz = 0xffffffff; /* past guest memory */
	elf32(ph, 2, 0x100000);
	assert_int_equal(load(&li), -EFAULT);
	untouched();
}

/* A small low segment next to the kernel at 1 MiB: each segment is
 * checked on its own, and the boot information goes at MB_INFO_GPA,
 * which the low one leaves free. */
static void test_elf32_low_segment(void **state)
{
	const struct elf32_phdr_t ph[2] = {
		{ PT_LOAD, 0x1000, 0x8000, 0x8000, 0x100, 0x200, 5, 0 },
		{ PT_LOAD, 0x2000, 0x100000, 0x100000, 0x800, 0x1000, 5, 0 },
	};
	struct mb_boot b = { MEM, "k", 0, 0, 0 };
	struct mb_load_info li;

	(void)state;
	elf32(ph, 2, 0x100000);
	assert_int_equal(load(&li), 0);
	assert_memory_equal(mem + 0x8000, img + 0x1000, 0x100);
	assert_int_equal(mem[0x81ff], 0);
	assert_memory_equal(mem + 0x100000, img + 0x2000, 0x800);
	assert_int_equal(li.start, 0x8000);
	assert_int_equal(li.end, 0x101000);
	assert_int_equal(mb_boot_place(&li, &b), 0);
	assert_int_equal(b.info_gpa, MB_INFO_GPA);
	assert_int_equal(mb_info_build(mem, &b), MB_INFO_GPA);
	/* The low segment is intact. */
	assert_memory_equal(mem + 0x8000, img + 0x1000, 0x100);
}

/* A low image over MB_INFO_GPA: the page goes after it, in a gap. */
static void test_info_after_low_image(void **state)
{
	struct mb_boot b = { MEM, NULL, 0, 0, 0 };
	struct mb_load_info li;

	(void)state;
	aout(AOUT_FLAGS, 0x8000, 0x8800, 0x9800);
	assert_int_equal(load(&li), 0);
	assert_int_equal(mb_boot_place(&li, &b), 0);
	assert_int_equal(b.info_gpa, 0xa000);
	/* An image that fills conventional memory leaves no room. */
	memset(li.low_used, 0xff, sizeof(li.low_used));
	assert_int_equal(mb_boot_place(&li, &b), -E2BIG);
	said("no free page for the boot information");
}

/* Module 0 after a low image goes at or above 1 MiB, never over the boot
 * information page or the ACPI tables; one that does not fit, or whose
 * size wraps, is refused. */
static void test_module_place(void **state)
{
	struct mb_boot b = { MEM, NULL, 0, 0x3000, 0 };
	struct mb_load_info li;

	(void)state;
	aout(AOUT_FLAGS, 0x1000, 0x1800, 0x2000);
	assert_int_equal(load(&li), 0);
	assert_int_equal(mb_boot_place(&li, &b), 0);
	assert_int_equal(b.mod_start, 0x100000);
	assert_int_equal(b.info_gpa, MB_INFO_GPA);
	assert_true(b.info_gpa + PAGE_SIZE <= b.mod_start ||
		    b.mod_start + b.mod_size <= b.info_gpa);
	/* After a high image: page-aligned after its end. */
	aout(AOUT_FLAGS, 0x100000, 0, 0x104321);
	assert_int_equal(load(&li), 0);
	assert_int_equal(mb_boot_place(&li, &b), 0);
	assert_int_equal(b.mod_start, 0x105000);
	b.mod_size = MEM - 0x105000 + 1;
	assert_int_equal(mb_boot_place(&li, &b), -E2BIG);
	said("module 0 (0x2fb001 bytes) does not fit");
	b.mod_size = ~0ULL - 0x1000; /* wraps */
	assert_int_equal(mb_boot_place(&li, &b), -E2BIG);
}

/* The boot information page only inside conventional memory. */
static void test_info_build_window(void **state)
{
	struct mb_boot b = { MEM, NULL, 0, 0, 0xa0000 };

	(void)state;
	assert_int_equal(mb_info_build(mem, &b), 0);
	b.info_gpa = ~0ULL & ~0xfffULL;
	assert_int_equal(mb_info_build(mem, &b), 0);
	b.info_gpa = 0x9100; /* not a page */
	assert_int_equal(mb_info_build(mem, &b), 0);
	untouched();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_place_fits),	   T(test_place_dst),
		T(test_place_align_up),	   T(test_aout_loads),
		T(test_aout_wraps),	   T(test_required_flags),
		T(test_bad_checksum),	   T(test_elf32_wraps),
		T(test_elf32_low_segment), T(test_info_after_low_image),
		T(test_module_place),	   T(test_info_build_window),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
