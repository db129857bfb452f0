// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_linux_boot.c - the bzImage setup-header checks
 * (hv/loader/bzimage.c) and the 64-bit boot layout (hv/loader/linux_boot.c):
 * a synthetic image lands where the protocol says with a zero page, e820
 * map, command line, initrd and GDT; each bad image is refused with a
 * message naming the problem and guest memory stays untouched; Debian's
 * kernel (build/linux/vmlinuz), when fetched, parses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/loader/bzimage.h"
#include "hv/loader/linux_boot.h"
#include "tests/doubles/fake_console.h"

#define MEM (8ULL << 20)
#define UNTOUCHED 0x5a
#define SETUP_SECTS 1
#define KOFF ((SETUP_SECTS + 1) * 512)
#define KSIZE 0x800
#define IMG_SIZE (KOFF + KSIZE)
#define PREF 0x200000ULL
#define INIT_SIZE 0x100000

static u8 img[IMG_SIZE];
static u8 *mem;
static const char initrd[] = "an initrd of some bytes";

static struct setup_header *hdr(void)
{
	return (struct setup_header *)(img + BZ_HDR_OFFSET);
}

static int setup(void **state)
{
	struct setup_header *h = hdr();

	(void)state;
	memset(img, 0, sizeof(img));
	img[0x201] = 0x6a; /* header ends at 0x26c, as Linux 6.x's */
	h->setup_sects = SETUP_SECTS;
	h->syssize = KSIZE / 16;
	h->boot_flag = BZ_BOOT_FLAG;
	h->header = BZ_HDR_MAGIC;
	h->version = 0x020f;
	h->loadflags = BZ_LOADED_HIGH;
	h->kernel_alignment = 0x200000;
	h->relocatable_kernel = 1;
	h->xloadflags = BZ_XLF_KERNEL_64;
	h->cmdline_size = 2047;
	h->initrd_addr_max = 0x7fffffff;
	h->pref_address = PREF;
	h->init_size = INIT_SIZE;
	for (int i = 0; i < KSIZE; i++)
		img[KOFF + i] = (u8)(i * 7 + 1);
	mem = malloc(MEM);
	assert_non_null(mem);
	memset(mem, UNTOUCHED, MEM);
	fake_console_clear();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(mem);
	return 0;
}

static int build(const char *cmdline, struct linux_layout *l)
{
	return linux_boot_build(mem, MEM, img, sizeof(img), cmdline, initrd,
				sizeof(initrd), l);
}

static void test_layout(void **state)
{
	struct boot_params *bp = (void *)(mem + LINUX_BOOT_PARAMS_GPA);
	const u64 *gdt = (const u64 *)(mem + LINUX_GDT_GPA);
	struct linux_layout l;
	u64 rd = (MEM - sizeof(initrd)) & ~0xfffULL;

	(void)state;
	assert_int_equal(build("console=ttyS0 acpi=off", &l), 0);
	assert_int_equal(l.kernel.v, PREF);
	assert_int_equal(l.entry.v, PREF + 0x200);
	assert_int_equal(l.kernel_end, PREF + INIT_SIZE);
	assert_memory_equal(mem + PREF, img + KOFF, KSIZE);
	assert_int_equal(l.initrd.v, rd);
	assert_memory_equal(mem + rd, initrd, sizeof(initrd));
	assert_string_equal((char *)mem + LINUX_CMDLINE_GPA,
			    "console=ttyS0 acpi=off");
	/* The setup header as in the image, then the loader's fields. */
	assert_int_equal(bp->hdr.header, BZ_HDR_MAGIC);
	assert_int_equal(bp->hdr.init_size, INIT_SIZE);
	assert_int_equal(bp->hdr.type_of_loader, 0xff);
	assert_int_equal(bp->hdr.cmd_line_ptr, LINUX_CMDLINE_GPA);
	assert_int_equal(bp->hdr.ramdisk_image, rd);
	assert_int_equal(bp->hdr.ramdisk_size, sizeof(initrd));
	assert_int_equal(bp->ext_ramdisk_image, 0);
	assert_int_equal(bp->sentinel, 0);
	assert_int_equal(bp->pad0[0], 0); /* the rest of the page is zero */
	/* e820: low RAM, EBDA and BIOS holes, RAM from 1 MiB to the end,
	 * the APIC page. */
	assert_int_equal(bp->e820_entries, 5);
	assert_int_equal(l.e820_entries, 5);
	assert_int_equal(bp->e820_table[0].addr, 0);
	assert_int_equal(bp->e820_table[0].size, LINUX_LOW_RAM_END);
	assert_int_equal(bp->e820_table[0].type, E820_RAM);
	assert_int_equal(bp->e820_table[1].type, E820_RESERVED);
	assert_int_equal(bp->e820_table[2].addr, 0xe0000);
	assert_int_equal(bp->e820_table[2].size, 0x20000);
	assert_int_equal(bp->e820_table[2].type, E820_RESERVED);
	assert_int_equal(bp->e820_table[3].addr, 0x100000);
	assert_int_equal(bp->e820_table[3].size, MEM - 0x100000);
	assert_int_equal(bp->e820_table[3].type, E820_RAM);
	assert_int_equal(bp->e820_table[4].addr, 0xfee00000);
	assert_int_equal(bp->e820_table[4].size, 0x1000);
	assert_int_equal(bp->e820_table[4].type, E820_RESERVED);
	/* A device window added after (the virtio disk's); a full map
	 * refuses one more. */
	assert_int_equal(linux_e820_reserve(mem, 0xfeb00000, 0x1000), 0);
	assert_int_equal(bp->e820_entries, 6);
	assert_int_equal(bp->e820_table[5].addr, 0xfeb00000);
	assert_int_equal(bp->e820_table[5].size, 0x1000);
	assert_int_equal(bp->e820_table[5].type, E820_RESERVED);
	bp->e820_entries = E820_MAX_ENTRIES_ZEROPAGE;
	assert_int_equal(linux_e820_reserve(mem, 0xfeb00000, 0x1000), -E2BIG);
	assert_int_equal(bp->e820_entries, E820_MAX_ENTRIES_ZEROPAGE);
	/* __BOOT_CS 0x10: 64-bit code; __BOOT_DS 0x18: flat data. */
	assert_int_equal(gdt[0], 0);
	assert_int_equal(gdt[LINUX_BOOT_CS / 8], 0x00af9b000000ffffULL);
	assert_int_equal(gdt[LINUX_BOOT_DS / 8], 0x00cf93000000ffffULL);
}

static void test_relocated_when_pref_unaligned(void **state)
{
	struct linux_layout l;

	(void)state;
	hdr()->pref_address = 0x123000;
	assert_int_equal(build("", &l), 0);
	assert_int_equal(l.kernel.v, 0x200000); /* ALIGN_UP(1 MiB, 2 MiB) */
	assert_int_equal(l.entry.v, 0x200200);
}

static void test_no_initrd(void **state)
{
	struct boot_params *bp = (void *)(mem + LINUX_BOOT_PARAMS_GPA);
	struct linux_layout l;

	(void)state;
	assert_int_equal(linux_boot_build(mem, MEM, img, sizeof(img), NULL,
					  NULL, 0, &l),
			 0);
	assert_int_equal(l.initrd.v, 0);
	assert_int_equal(bp->hdr.ramdisk_image, 0);
	assert_int_equal(bp->hdr.ramdisk_size, 0);
	assert_int_equal(mem[LINUX_CMDLINE_GPA], 0);
}

/* Refused with a message containing msg; not one byte written. */
static void refused(size_t size, int err, const char *msg)
{
	struct linux_layout l;
	size_t i;

	assert_int_equal(linux_boot_build(mem, MEM, img, size, "x", initrd,
					  sizeof(initrd), &l),
			 err);
	if (!fake_console_has(msg))
		fail_msg("no '%s' in: %s", msg, fake_console_text());
	for (i = 0; i < MEM && mem[i] == UNTOUCHED; i++)
		;
	assert_int_equal(i, MEM);
}

static void test_not_bzimage(void **state)
{
	(void)state;
	hdr()->header = 0x464c457f;
	assert_false(bzimage_detect(img, sizeof(img)));
	refused(sizeof(img), -EINVAL, "not a Linux bzImage");
}

static void test_tiny_file(void **state)
{
	(void)state;
	assert_false(bzimage_detect(img, 0x203));
	refused(0x203, -EINVAL, "not a Linux bzImage");
}

static void test_old_protocol(void **state)
{
	(void)state;
	hdr()->version = 0x020b;
	refused(sizeof(img), -EINVAL, "boot protocol 2.11");
}

static void test_bad_boot_flag(void **state)
{
	(void)state;
	hdr()->boot_flag = 0;
	refused(sizeof(img), -EINVAL, "boot_flag");
}

static void test_not_loaded_high(void **state)
{
	(void)state;
	hdr()->loadflags = 0;
	refused(sizeof(img), -EINVAL, "LOADED_HIGH");
}

static void test_no_64bit_entry(void **state)
{
	(void)state;
	hdr()->xloadflags = 0x2;
	refused(sizeof(img), -EINVAL, "XLF_KERNEL_64");
}

static void test_truncated(void **state)
{
	(void)state;
	refused(sizeof(img) - 16, -EINVAL, "truncated");
}

static void test_setup_past_end(void **state)
{
	(void)state;
	hdr()->setup_sects = 200;
	refused(sizeof(img), -EINVAL, "past the");
}

static void test_bad_alignment(void **state)
{
	(void)state;
	hdr()->kernel_alignment = 0x300000;
	refused(sizeof(img), -EINVAL, "kernel_alignment");
}

static void test_too_little_memory(void **state)
{
	(void)state;
	hdr()->init_size = MEM; /* from 2 MiB, past the end */
	refused(sizeof(img), -E2BIG, "raise guest_mem=");
}

/* A pref_address near 2^64 would wrap the kernel's end past zero and put
 * it below guest memory: refused, relocatable or not, nothing written. */
static void test_pref_wraps(void **state)
{
	(void)state;
	hdr()->pref_address = 0xffffffffffe00000ULL; /* 2 MiB aligned */
	refused(sizeof(img), -E2BIG, "does not fit in [1 MiB,");
	hdr()->relocatable_kernel = 0;
	refused(sizeof(img), -E2BIG, ", fixed) does not fit");
	hdr()->pref_address = 0xfffffffffffff000ULL;
	hdr()->init_size = 0x2000; /* pref + init_size wraps to 0x1000 */
	refused(sizeof(img), -E2BIG, "does not fit in [1 MiB,");
}

/* init_size near 4 GiB from a high pref: no wrap through the sum. */
static void test_init_size_wraps(void **state)
{
	(void)state;
	hdr()->init_size = 0xffffffffu;
	refused(sizeof(img), -E2BIG, "raise guest_mem=");
}

/* A kernel that is not relocatable goes at its pref_address, never below
 * 1 MiB (the zero page, command line and ACPI tables lie there). */
static void test_not_relocatable_low(void **state)
{
	struct linux_layout l;

	(void)state;
	hdr()->relocatable_kernel = 0;
	hdr()->pref_address = 0x10000;
	refused(sizeof(img), -E2BIG,
		"pref_address 0x10000, fixed) does not fit in [1 MiB,");
	hdr()->pref_address = 0x300000;
	assert_int_equal(build("", &l), 0);
	assert_int_equal(l.kernel.v, 0x300000);
	hdr()->pref_address = 0; /* before protocol 2.10: 1 MiB */
	assert_int_equal(build("", &l), 0);
	assert_int_equal(l.kernel.v, 0x100000);
}

/* boot.rst: init_size counts from the runtime start,
 * align_up(max(load, pref_address), kernel_alignment), which lies above
 * the load address when pref_address is unaligned and higher. */
static void test_runtime_start(void **state)
{
	struct linux_layout l;

	(void)state;
	hdr()->pref_address = 0x501000; /* runtime start 0x600000 */
	hdr()->init_size = 0x1ff000; /* to 0x7ff000: the initrd's page */
	assert_int_equal(build("", &l), 0);
	assert_int_equal(l.kernel.v, 0x200000);
	assert_int_equal(l.kernel_end, 0x7ff000);
	hdr()->init_size = 0x200000; /* a page into the initrd's */
	memset(mem, UNTOUCHED, MEM);
	refused(sizeof(img), -E2BIG, "below the initrd");
}

static void test_cmdline_too_long(void **state)
{
	struct linux_layout l;
	char line[64];
	size_t i;

	(void)state;
	hdr()->cmdline_size = 10;
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = 0;
	assert_int_equal(linux_boot_build(mem, MEM, img, sizeof(img), line,
					  NULL, 0, &l),
			 -EINVAL);
	assert_true(fake_console_has("command line of 63 bytes"));
	for (i = 0; i < MEM && mem[i] == UNTOUCHED; i++)
		;
	assert_int_equal(i, MEM);
}

/* Debian's kernel, when tools/linux-kernel.sh has fetched it. */
static void test_debian_kernel(void **state)
{
	struct bzimage_info bz;
	FILE *f = fopen("build/linux/vmlinuz", "rb");
	u8 *buf;
	long n;

	(void)state;
	if (!f) {
		skip();
		return;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	assert_true(bzimage_detect(buf, n));
	assert_int_equal(bzimage_parse(buf, n, &bz), 0);
	assert_true(bz.version >= BZ_MIN_VERSION);
	assert_true(bz.relocatable);
	assert_int_equal(bz.hdr_len, 0x202 + buf[0x201] - BZ_HDR_OFFSET);
	assert_true(bz.kernel_off + bz.kernel_size == (u64)n);
	free(buf);
}

/* minhv's TSC rate goes on the command line unless the user gave one;
 * no room: refused, the command line unchanged. */
static void test_cmdline_tsc(void **state)
{
	struct linux_layout l;
	char *c = (char *)mem + LINUX_CMDLINE_GPA;
	char big[2048];

	(void)state;
	assert_int_equal(build("console=ttyS0", &l), 0);
	assert_int_equal(linux_cmdline_tsc(mem, &l, 2345678), 1);
	assert_string_equal(c, "console=ttyS0 tsc_early_khz=2345678");
	/* Present already (ours or the user's): left alone. */
	assert_int_equal(linux_cmdline_tsc(mem, &l, 1000), 0);
	assert_string_equal(c, "console=ttyS0 tsc_early_khz=2345678");
	assert_int_equal(build("", &l), 0);
	assert_int_equal(linux_cmdline_tsc(mem, &l, 1000), 1);
	assert_string_equal(c, "tsc_early_khz=1000");
	/* A word that only ends in the key does not count. */
	assert_int_equal(build("xtsc_early_khz=5", &l), 0);
	assert_int_equal(linux_cmdline_tsc(mem, &l, 7), 1);
	assert_string_equal(c, "xtsc_early_khz=5 tsc_early_khz=7");
	assert_int_equal(linux_cmdline_tsc(mem, &l, 0), 0);
	memset(big, 'a', 2040);
	big[2040] = 0;
	assert_int_equal(build(big, &l), 0);
	assert_int_equal(linux_cmdline_tsc(mem, &l, 2345678), -E2BIG);
	assert_int_equal(strlen(c), 2040);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_layout),
		T(test_relocated_when_pref_unaligned),
		T(test_no_initrd),
		T(test_not_bzimage),
		T(test_pref_wraps),
		T(test_init_size_wraps),
		T(test_not_relocatable_low),
		T(test_runtime_start),
		T(test_tiny_file),
		T(test_old_protocol),
		T(test_bad_boot_flag),
		T(test_not_loaded_high),
		T(test_no_64bit_entry),
		T(test_truncated),
		T(test_setup_past_end),
		T(test_bad_alignment),
		T(test_too_little_memory),
		T(test_cmdline_too_long),
		T(test_cmdline_tsc),
		T(test_debian_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
