// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/linux_boot.c - lay out a Linux bzImage for the 64-bit boot
 * protocol (Linux Documentation/arch/x86/boot.rst, "64-bit Boot Protocol"):
 * kernel, initrd, command line, zero page with an e820 map, flat GDT. */
#include "arch/cr.h"
#include "arch/errno.h"
#include "hv/loader/bzimage.h"
#include "hv/loader/linux_boot.h"
#include "hv/loader/place.h"
#include "hv/vcpu/vcpu.h"
#include "hv/log.h"
#include "include/minhv/guest_layout.h"
#include "lib/fmt.h"
#include "lib/string.h"

/* Flat descriptors (APM vol 2, 4.8): 64-bit code (L=1) and 4 GiB data,
 * both accessed, DPL 0. */
static const u64 boot_gdt[4] = {
	0, 0, 0x00af9b000000ffffULL, /* 0x10 __BOOT_CS */
	0x00cf93000000ffffULL, /* 0x18 __BOOT_DS */
};

static void e820_add(struct boot_params *bp, u64 addr, u64 size, u32 type)
{
	struct boot_e820_entry *e = &bp->e820_table[bp->e820_entries++];

	e->addr = addr;
	e->size = size;
	e->type = type;
}

/* Guest memory the protected-mode kernel and the initrd may use: from
 * 1 MiB (below lie the zero page, command line, GDT and ACPI tables) to
 * top. */
static int kernel_fits(u64 a, u64 size, u64 top)
{
	const struct place_win w = { PLACE_FLOOR, top };

	return place_fits(&w, a, size);
}

/* The runtime start (boot.rst, init_size): where the kernel decompresses
 * to and runs, align_up(max(load, pref_address), kernel_alignment) for a
 * relocatable kernel, pref_address for another. false when it wraps. */
static bool runtime_start(const struct bzimage_info *bz, u64 load, u64 *start)
{
	if (!bz->relocatable) {
		*start = load;
		return true;
	}
	return place_align_up(load > bz->pref_address ? load : bz->pref_address,
			      bz->alignment, start);
}

/* Does the kernel loaded at load fit below top: its bytes from the file,
 * and init_size bytes from its runtime start? *end is the end of both. */
static bool kernel_at(const struct bzimage_info *bz, u64 load, u64 top,
		      u64 *end)
{
	u64 run, a, b;

	if (!runtime_start(bz, load, &run) ||
	    !kernel_fits(load, bz->kernel_size, top) ||
	    !kernel_fits(run, bz->init_size, top))
		return false;
	a = load + bz->kernel_size;
	b = run + bz->init_size;
	*end = a > b ? a : b;
	return true;
}

/* Where the protected-mode kernel goes: a non-relocatable kernel at its
 * pref_address (1 MiB when 0: protocols before 2.10), never below 1 MiB;
 * a relocatable one there too when it is aligned and fits, else at the
 * lowest aligned address from 1 MiB. false when no place fits. */
static bool kernel_address(const struct bzimage_info *bz, u64 top, u64 *load,
			   u64 *end)
{
	u64 a = bz->pref_address;

	if (!bz->relocatable) {
		*load = a ? a : LINUX_HIGH_RAM;
		return kernel_at(bz, *load, top, end);
	}
	if (a >= LINUX_HIGH_RAM && IS_ALIGNED(a, bz->alignment) &&
	    kernel_at(bz, a, top, end)) {
		*load = a;
		return true;
	}
	return place_align_up(LINUX_HIGH_RAM, bz->alignment, load) &&
	       kernel_at(bz, *load, top, end);
}

static int place(u64 mem_size, const struct bzimage_info *bz,
		 size_t initrd_size, struct linux_layout *l)
{
	u64 top = mem_size, load = 0, end = 0;

	if (initrd_size) {
		/* As high as the kernel can reach (initrd_addr_max is the
		 * highest byte it may occupy). */
		if (bz->initrd_addr_max && top > (u64)bz->initrd_addr_max + 1)
			top = (u64)bz->initrd_addr_max + 1;
		if (initrd_size > top ||
		    !kernel_fits(ALIGN_DOWN(top - initrd_size, PAGE_SIZE),
				 initrd_size, top)) {
			pr_err("linux: initrd of %zu bytes does not fit in [1 MiB, %#llx)\n",
			       initrd_size, (unsigned long long)top);
			return -E2BIG;
		}
		l->initrd = gpa(ALIGN_DOWN(top - initrd_size, PAGE_SIZE));
		l->initrd_size = initrd_size;
		top = l->initrd.v;
	}
	if (!kernel_address(bz, top, &load, &end)) {
		pr_err("linux: the kernel (init_size %#llx, pref_address %#llx%s) does not fit in [1 MiB, %#llx)%s\n",
		       (unsigned long long)bz->init_size,
		       (unsigned long long)bz->pref_address,
		       bz->relocatable ? "" : ", fixed",
		       (unsigned long long)top,
		       initrd_size ? " below the initrd: raise guest_mem=" :
				     ": raise guest_mem=");
		return -E2BIG;
	}
	l->kernel = gpa(load);
	l->kernel_end = end;
	l->entry = gpa(l->kernel.v + BZ_ENTRY64_OFFSET);
	return 0;
}

static void fill_zero_page(struct boot_params *bp, const void *img,
			   const struct bzimage_info *bz,
			   const struct linux_layout *l, u64 mem_size)
{
	memset(bp, 0, sizeof(*bp));
	memcpy(&bp->hdr, (const u8 *)img + BZ_HDR_OFFSET, bz->hdr_len);
	bp->hdr.type_of_loader = BZ_LOADER_UNDEFINED;
	bp->hdr.code32_start = (u32)l->kernel.v;
	bp->hdr.cmd_line_ptr = (u32)LINUX_CMDLINE_GPA;
	bp->hdr.ramdisk_image = (u32)l->initrd.v;
	bp->hdr.ramdisk_size = (u32)l->initrd_size;
	bp->ext_ramdisk_image = (u32)(l->initrd.v >> 32);
	bp->ext_ramdisk_size = (u32)((u64)l->initrd_size >> 32);
	bp->hdr.heap_end_ptr = 0; /* no real-mode setup code runs */
	/* Guest memory is RAM except a PC's EBDA and BIOS holes (the ACPI
	 * tables at 0xE0000); the page tables, zero page and GDT minhv wrote
	 * lie in the first 1 MiB, which Linux reserves for itself. The local
	 * APIC page above RAM is reserved, as a PC's firmware reports it. */
	e820_add(bp, 0, LINUX_LOW_RAM_END, E820_RAM);
	e820_add(bp, LINUX_LOW_RAM_END, 0xa0000 - LINUX_LOW_RAM_END,
		 E820_RESERVED);
	e820_add(bp, LINUX_BIOS_START, LINUX_HIGH_RAM - LINUX_BIOS_START,
		 E820_RESERVED);
	e820_add(bp, LINUX_HIGH_RAM, mem_size - LINUX_HIGH_RAM, E820_RAM);
	e820_add(bp, LINUX_APIC_GPA, PAGE_SIZE, E820_RESERVED);
}

/* Every byte through place_dst(): the kernel and initrd from 1 MiB up,
 * the boot data (GDT, zero page, command line) in one block of low RAM
 * [LINUX_GDT_GPA, LINUX_BOOT_DATA_END). place() checked them all, so a
 * refusal here writes nothing. */
static int write_all(void *mem, u64 mem_size, const void *img,
		     const struct bzimage_info *bz,
		     const struct linux_layout *l, const char *cmdline,
		     size_t clen, const void *initrd)
{
	const struct place_mem m = { mem, mem_size };
	const struct place_win high = { PLACE_FLOOR, mem_size };
	const struct place_win low = { LINUX_LOW_FLOOR, LINUX_LOW_RAM_END };
	u8 *kernel = place_dst(&m, &high, l->kernel.v, bz->kernel_size);
	u8 *rd = place_dst(&m, &high, l->initrd.v, l->initrd_size);
	u8 *boot = place_dst(&m, &low, LINUX_GDT_GPA,
			     LINUX_BOOT_DATA_END - LINUX_GDT_GPA);

	if (!kernel || (l->initrd_size && !rd) || !boot)
		return -EFAULT;
	boot -= LINUX_GDT_GPA; /* boot + GPA: that byte of the block */
	memcpy(kernel, (const u8 *)img + bz->kernel_off, bz->kernel_size);
	if (l->initrd_size)
		memcpy(rd, initrd, l->initrd_size);
	memset(boot + LINUX_CMDLINE_GPA, 0, clen + 1);
	if (clen)
		memcpy(boot + LINUX_CMDLINE_GPA, cmdline, clen);
	memcpy(boot + LINUX_GDT_GPA, boot_gdt, sizeof(boot_gdt));
	fill_zero_page((struct boot_params *)(boot + LINUX_BOOT_PARAMS_GPA),
		       img, bz, l, mem_size);
	return 0;
}

int linux_boot_build(void *mem, u64 mem_size, const void *img, size_t size,
		     const char *cmdline, const void *initrd,
		     size_t initrd_size, struct linux_layout *out)
{
	struct bzimage_info bz;
	struct linux_layout l = { 0 };
	struct boot_params *bp;
	size_t clen = cmdline ? strlen(cmdline) : 0;
	u8 *m = mem;
	int r;

	if (mem_size < 2 * LINUX_HIGH_RAM) {
		pr_err("linux: %llu KiB of guest memory is too little\n",
		       (unsigned long long)(mem_size >> 10));
		return -E2BIG;
	}
	r = bzimage_parse(img, size, &bz);
	if (r)
		return r;
	if (clen >= LINUX_CMDLINE_MAX ||
	    (bz.cmdline_size && clen > bz.cmdline_size)) {
		pr_err("linux: command line of %zu bytes, the kernel takes %u\n",
		       clen, bz.cmdline_size);
		return -EINVAL;
	}
	r = place(mem_size, &bz, initrd ? initrd_size : 0, &l);
	if (r)
		return r;

	r = write_all(mem, mem_size, img, &bz, &l, cmdline, clen, initrd);
	if (r)
		return r;
	bp = (struct boot_params *)(m + LINUX_BOOT_PARAMS_GPA);
	l.e820_entries = bp->e820_entries;
	l.cmdline_max = bz.cmdline_size && bz.cmdline_size < LINUX_CMDLINE_MAX ?
				bz.cmdline_size :
				LINUX_CMDLINE_MAX - 1;
	pr_info("linux: boot protocol %u.%02u, kernel %#llx-%#llx, entry %#llx, initrd %#llx+%#llx, command line \"%s\"\n",
		bz.version >> 8, bz.version & 0xff,
		(unsigned long long)l.kernel.v,
		(unsigned long long)l.kernel_end, (unsigned long long)l.entry.v,
		(unsigned long long)l.initrd.v,
		(unsigned long long)l.initrd_size, clen ? cmdline : "");
	*out = l;
	return 0;
}

int linux_e820_reserve(void *mem, u64 addr, u64 size)
{
	struct boot_params *bp =
		(struct boot_params *)((u8 *)mem + LINUX_BOOT_PARAMS_GPA);

	if (bp->e820_entries >= E820_MAX_ENTRIES_ZEROPAGE)
		return -E2BIG;
	e820_add(bp, addr, size, E820_RESERVED);
	return 0;
}

/* Whether the command line has a word starting with key. */
static bool cmdline_has(const char *c, const char *key)
{
	size_t n = strlen(key);

	for (const char *w = c; *w; w++)
		if ((w == c || w[-1] == ' ') && !strncmp(w, key, n))
			return true;
	return false;
}

int linux_cmdline_tsc(void *mem, const struct linux_layout *l, u64 tsc_khz)
{
	char *c = (char *)mem + LINUX_CMDLINE_GPA;
	size_t len = strlen(c);
	char opt[40];
	int n;

	if (!tsc_khz || cmdline_has(c, "tsc_early_khz="))
		return 0;
	n = fmt_snprintf(opt, sizeof(opt), "%stsc_early_khz=%llu",
			 len ? " " : "", (unsigned long long)tsc_khz);
	if (len + (size_t)n > l->cmdline_max) {
		pr_err("linux: no room on the command line for tsc_early_khz=%llu\n",
		       (unsigned long long)tsc_khz);
		return -E2BIG;
	}
	memcpy(c + len, opt, (size_t)n + 1);
	return 1;
}

static void boot_seg(struct vmcb_seg *s, u16 sel)
{
	s->selector = sel;
}

void linux_vcpu_setup(struct vcpu *v)
{
	struct vmcb_save *s = &v->vmcb->save;

	/* The attributes vmcb_build() set (flat 64-bit code, flat data)
	 * already match these descriptors; only the selectors and the
	 * GDT they index change. */
	boot_seg(&s->cs, LINUX_BOOT_CS);
	boot_seg(&s->ds, LINUX_BOOT_DS);
	boot_seg(&s->es, LINUX_BOOT_DS);
	boot_seg(&s->ss, LINUX_BOOT_DS);
	boot_seg(&s->fs, LINUX_BOOT_DS);
	boot_seg(&s->gs, LINUX_BOOT_DS);
	s->gdtr.base = LINUX_GDT_GPA;
	s->gdtr.limit = sizeof(boot_gdt) - 1;
	s->rflags = RFLAGS_FIXED; /* IF = 0 */
	v->gprs.rsi = LINUX_BOOT_PARAMS_GPA;
	v->gprs.rdi = 0;
}
