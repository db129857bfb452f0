// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_platform.c - the guest platform's pure parts: the ACPI
 * tables parsed back by minhv's own ACPI parser (hv/acpi), the PM timer
 * rate, fw_cfg items, the multiboot header search, ELF loading and boot
 * information. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hv/acpi/acpi.h"
#include "hv/acpi/tables.h"
#include "hv/guest/guest.h"
#include "hv/loader/elf_format.h"
#include "hv/loader/multiboot.h"
#include "hv/platform/platform.h"
#include "lib/checksum.h"

/* Double of hv/guest/vcpu_api.c (which stops guests through hv/guest):
 * the devices reach their guest's platform through it. */
struct platform *vcpu_platform(struct vcpu *v)
{
	return guest_has_platform(v->guest) ? &v->guest->plat : NULL;
}

static void *test_alloc(size_t n)
{
	static char pool[64 * 1024];
	static size_t used;

	if (used + n > sizeof(pool))
		return NULL;
	used += n;
	return pool + used - n;
}

/* The tables are built where the host test can follow their pointers. */
static void test_acpi_tables_parse_back(void **state)
{
	u8 *buf = aligned_alloc(16, ACPI_TABLES_SIZE);
	struct acpi_info a = { 0 };
	const struct acpi_rsdp *r = (const void *)buf;
	const u8 *fadt;

	(void)state;
	acpi_tables_build(buf, (u64)(uintptr_t)buf, 4, false);
	assert_int_equal(checksum8(r, ACPI_RSDP_V1_LEN), 0);
	assert_int_equal(checksum8(r, ACPI_RSDP_V2_LEN), 0);
	assert_int_equal(acpi_parse(hpa((u64)(uintptr_t)buf), &a, test_alloc),
			 0);
	assert_true(a.used_xsdt);
	assert_int_equal(a.ncpus, 4);
	for (u32 i = 0; i < 4; i++) {
		assert_int_equal(a.cpus[i].apic_id, i);
		assert_true(a.cpus[i].enabled);
	}
	assert_int_equal(a.lapic_addr, 0xfee00000);
	/* FADT (first XSDT entry; the host heap is above 4 GiB, so not
	 * through the RSDT): PM_TMR_BLK, PM_TMR_LEN, checksum. */
	{
		u64 x;

		memcpy(&x, buf + 0x80 + 36, 8);
		fadt = (const u8 *)(uintptr_t)x;
	}
	assert_memory_equal(fadt, "FACP", 4);
	assert_int_equal(checksum8(fadt, *(const u32 *)(fadt + 4)), 0);
	assert_int_equal(*(const u32 *)(fadt + 76), PM_TIMER_PORT);
	assert_int_equal(fadt[91], 4);
	free(buf);
}

/* The FACS behind FIRMWARE_CTRL and X_FIRMWARE_CTRL (ACPI 6.5 5.2.10:
 * 64 bytes, 64-byte aligned, waking vector at 12, 0 until OSPM sets it),
 * the PM1a blocks (5.2.9) and the DSDT's \_S3 package (SLP_TYP 1). */
static void test_acpi_facs_pm1(void **state)
{
	u8 *buf = aligned_alloc(4096, ACPI_TABLES_SIZE);
	u64 base = 0xe0000, x;
	const u8 *fadt, *facs, *dsdt, *gas;
	static const u8 s3[] = { 0x08, '_',  'S',  '3',	 '_',  0x12,
				 0x06, 0x04, 0x01, 0x01, 0x00, 0x00 };

	(void)state;
	acpi_tables_build(buf, base, 2, false);
	memcpy(&x, buf + 0x80 + 36, 8);
	fadt = buf + (x - base);
	assert_memory_equal(fadt, "FACP", 4);
	assert_int_equal(checksum8(fadt, *(const u32 *)(fadt + 4)), 0);
	/* FIRMWARE_CTRL (36) and X_FIRMWARE_CTRL (132). */
	assert_int_equal(*(const u32 *)(fadt + 36), base + ACPI_FACS_OFF);
	memcpy(&x, fadt + 132, 8);
	assert_int_equal(x, base + ACPI_FACS_OFF);
	assert_int_equal(x % 64, 0);
	facs = buf + ACPI_FACS_OFF;
	assert_memory_equal(facs, "FACS", 4);
	assert_int_equal(*(const u32 *)(facs + 4), 64);
	assert_int_equal(*(const u32 *)(facs + 12), 0);
	/* PM1a_EVT_BLK (56), PM1a_CNT_BLK (64), their lengths (88, 89),
	 * and the X_ GAS (148, 172: I/O space, address at +4). */
	assert_int_equal(*(const u32 *)(fadt + 56), PM1_EVT_PORT);
	assert_int_equal(*(const u32 *)(fadt + 64), PM1_CNT_PORT);
	assert_int_equal(fadt[88], 4);
	assert_int_equal(fadt[89], 2);
	gas = fadt + 148;
	memcpy(&x, gas + 4, 8);
	assert_int_equal(gas[0], ACPI_GAS_IO);
	assert_int_equal(gas[1], 32);
	assert_int_equal(x, PM1_EVT_PORT);
	gas = fadt + 172;
	memcpy(&x, gas + 4, 8);
	assert_int_equal(gas[0], ACPI_GAS_IO);
	assert_int_equal(gas[1], 16);
	assert_int_equal(x, PM1_CNT_PORT);
	/* The PM timer stays where it was. */
	assert_int_equal(*(const u32 *)(fadt + 76), PM_TIMER_PORT);
	/* The DSDT: checksum, and Name (_S3, Package () { 1, 1, 0, 0 }). */
	dsdt = buf + (*(const u32 *)(fadt + 40) - base);
	assert_memory_equal(dsdt, "DSDT", 4);
	assert_int_equal(checksum8(dsdt, *(const u32 *)(dsdt + 4)), 0);
	assert_memory_equal(dsdt + 36, s3, sizeof(s3));
	free(buf);
}

/* What issue 25 added: the MADT's I/O APIC and QEMU's two overrides, the
 * FADT's SCI and reset register (ACPI 6.5 Table 5.9: RESET_REG at 116,
 * RESET_VALUE at 128, RESET_REG_SUP flag bit 10), the HPET table. */
static void test_acpi_ioapic_reset_hpet(void **state)
{
	u8 *buf = aligned_alloc(4096, ACPI_TABLES_SIZE);
	u64 base = 0xe0000, x;
	const u8 *fadt, *madt, *hpet, *e;
	struct acpi_info a = { 0 };
	u32 isos = 0;

	(void)state;
	acpi_tables_build(buf, (u64)(uintptr_t)buf, 2, false);
	assert_int_equal(acpi_parse(hpa((u64)(uintptr_t)buf), &a, test_alloc),
			 0);
	assert_int_equal(a.nioapic, 1);
	assert_int_equal(a.ioapic[0].addr, 0xfec00000);
	assert_int_equal(a.ioapic[0].gsi_base, 0);
	assert_int_equal(a.ncpus, 2);
	acpi_tables_build(buf, base, 2, false);
	/* The MADT's entries after the two Local APICs. */
	madt = buf + 0x240;
	assert_memory_equal(madt, "APIC", 4);
	assert_int_equal(checksum8(madt, *(const u32 *)(madt + 4)), 0);
	assert_int_equal(*(const u32 *)(madt + 40) & 1, 1); /* PCAT_COMPAT */
	for (e = madt + 44; e < madt + *(const u32 *)(madt + 4); e += e[1]) {
		u32 gsi;
		u16 flags;

		if (e[0] != 2)
			continue;
		isos++;
		memcpy(&gsi, e + 4, 4); /* packed: unaligned */
		memcpy(&flags, e + 8, 2);
		if (e[3] == 0) { /* IRQ 0 -> GSI 2, conforming */
			assert_int_equal(gsi, 2);
			assert_int_equal(flags, 0);
		} else { /* the SCI: IRQ 9, level, active high */
			assert_int_equal(e[3], 9);
			assert_int_equal(gsi, 9);
			assert_int_equal(flags, 0xd);
		}
	}
	assert_int_equal(isos, 2);
	memcpy(&x, buf + 0x80 + 36, 8);
	fadt = buf + (x - base);
	assert_int_equal(*(const u16 *)(fadt + 46), 9); /* SCI_INT */
	assert_int_equal(*(const u32 *)(fadt + 48), 0); /* no SMI_CMD */
	assert_true(*(const u32 *)(fadt + 112) & BIT(10));
	assert_int_equal(fadt[116], ACPI_GAS_IO);
	assert_int_equal(fadt[117], 8);
	memcpy(&x, fadt + 120, 8);
	assert_int_equal(x, 0xcf9);
	assert_int_equal(fadt[128], 6);
	assert_int_equal(checksum8(fadt, *(const u32 *)(fadt + 4)), 0);
	/* The XSDT's third table: the HPET, at 0xFED00000. */
	assert_int_equal(*(const u32 *)(buf + 0x80 + 4), 36 + 3 * 8);
	memcpy(&x, buf + 0x80 + 36 + 16, 8);
	hpet = buf + (x - base);
	assert_memory_equal(hpet, "HPET", 4);
	assert_int_equal(checksum8(hpet, *(const u32 *)(hpet + 4)), 0);
	assert_int_equal(hpet[40], ACPI_GAS_MEMORY);
	memcpy(&x, hpet + 44, 8);
	assert_int_equal(x, 0xfed00000);
	assert_int_equal(*(const u32 *)(hpet + 36), 0x80862201);
	free(buf);
}

/* AML PkgLength (ACPI 6.5 20.2.4) at p: its value, *n its bytes. */
static u32 pkglen(const u8 *p, unsigned *n)
{
	u32 v = p[0] & 0x3f;

	*n = 1 + (p[0] >> 6);
	if (*n > 1)
		v = p[0] & 0x0f;
	for (unsigned i = 1; i < *n; i++)
		v |= (u32)p[i] << (4 + 8 * (i - 1));
	return v;
}

/* With the disk, the DSDT declares it as QEMU's microvm does (Linux's
 * virtio_mmio binds LNRO0005): the device, its window and its level,
 * active-high GSI in _CRS, every length consistent; without, the DSDT
 * has the sleep types only. */
static void test_acpi_dsdt_disk(void **state)
{
	u8 *buf = aligned_alloc(4096, ACPI_TABLES_SIZE);
	u64 base = 0xe0000;
	const u8 *dsdt, *madt = buf + 0x240, *a, *end, *crs;
	u32 len, v;
	unsigned n;

	(void)state;
	acpi_tables_build(buf, base, 1, false);
	dsdt = buf + (*(const u32 *)(buf + 0x100 + 40) - base);
	assert_int_equal(*(const u32 *)(dsdt + 4), 36 + 24);
	acpi_tables_build(buf, base, 255, true);
	dsdt = buf + (*(const u32 *)(buf + 0x100 + 40) - base);
	len = *(const u32 *)(dsdt + 4);
	assert_memory_equal(dsdt, "DSDT", 4);
	assert_int_equal(checksum8(dsdt, len), 0);
	assert_true(dsdt + len <= buf + ACPI_TABLES_SIZE);
	/* The MADT with 255 CPUs ends before the DSDT. */
	assert_memory_equal(madt, "APIC", 4);
	assert_true(madt + *(const u32 *)(madt + 4) <= dsdt);
	end = dsdt + len;
	a = dsdt + 36 + 24; /* after the sleep types */
	/* Scope (\_SB): its PkgLength runs to the end of the table. */
	assert_int_equal(a[0], 0x10);
	assert_int_equal(pkglen(a + 1, &n), end - (a + 1));
	assert_memory_equal(a + 1 + n, "\\_SB_", 5);
	a += 1 + n + 5;
	/* Device (VR00), to the end as well. */
	assert_int_equal(a[0], 0x5b);
	assert_int_equal(a[1], 0x82);
	assert_int_equal(pkglen(a + 2, &n), end - (a + 2));
	assert_memory_equal(a + 2 + n, "VR00", 4);
	a += 2 + n + 4;
	assert_memory_equal(a, "\x08_HID\x0dLNRO0005", 15);
	a += 15;
	assert_memory_equal(a, "\x08_UID\x00", 6);
	a += 6;
	assert_memory_equal(a, "\x08_CRS\x11", 6);
	assert_int_equal(pkglen(a + 6, &n), end - (a + 6));
	a += 6 + n;
	assert_int_equal(a[0], 0x0a); /* BufferSize, a byte */
	assert_int_equal(a[1], end - (a + 2));
	crs = a + 2;
	/* Memory32Fixed, read-write: the device window. */
	assert_int_equal(crs[0], 0x86);
	assert_int_equal(crs[1] | crs[2] << 8, 9);
	assert_int_equal(crs[3], 1);
	memcpy(&v, crs + 4, 4);
	assert_int_equal(v, VIRTIO_BLK_GPA);
	memcpy(&v, crs + 8, 4);
	assert_int_equal(v, VIRTIO_MMIO_SIZE);
	/* Extended Interrupt: consumer, level, active high, exclusive. */
	crs += 12;
	assert_int_equal(crs[0], 0x89);
	assert_int_equal(crs[1] | crs[2] << 8, 6);
	assert_int_equal(crs[3], 0x01);
	assert_int_equal(crs[4], 1);
	memcpy(&v, crs + 5, 4);
	assert_int_equal(v, VIRTIO_BLK_GSI);
	/* End Tag, and nothing after it. */
	crs += 9;
	assert_int_equal(crs[0], 0x79);
	assert_ptr_equal(crs + 2, end);
	free(buf);
}

static void test_pm_timer_rate(void **state)
{
	(void)state;
	/* One second of a 2 GHz TSC is 3579545 ticks. */
	assert_int_equal(pm_timer_ticks(2000000000ULL, 2000000),
			 ACPI_PM_TIMER_HZ);
	assert_int_equal(pm_timer_ticks(0, 2000000), 0);
	assert_int_equal(pm_timer_ticks(1000, 0), 0);
	/* Monotonic across a millisecond boundary. */
	assert_true(pm_timer_ticks(1999999, 2000000) <=
		    pm_timer_ticks(2000000, 2000000));
	/* The multiply (pm_timer_mult()) is floor(delta * HZ / f) exactly
	 * while delta < 2^64 / f (minutes: the 32-bit timer wraps first),
	 * at rates from 3.6 MHz to 5 GHz and odd ones. */
	static const u64 khz[] = { 3580,    25000,   999687, 1000046,
				   2000000, 2457673, 4999999 };
	for (size_t i = 0; i < ARRAY_SIZE(khz); i++) {
		u64 f = khz[i] * 1000, d = 1;

		assert_int_not_equal(pm_timer_mult(khz[i]), 0);
		for (int k = 0; k < 400 && d < (~0ULL / f); k++) {
			u64 want = (u64)((unsigned __int128)d *
					 ACPI_PM_TIMER_HZ / f);

			assert_int_equal(pm_timer_ticks(d, khz[i]), (u32)want);
			d = d * 3 / 2 + 7;
		}
	}
	/* A TSC slower than the timer: no rate. */
	assert_int_equal(pm_timer_mult(3579), 0);
}

static void test_fw_cfg_items(void **state)
{
	struct platform p = { .nr_cpus = 3, .ram_size = 128 << 20 };

	(void)state;
	assert_int_equal(fw_cfg_byte(&p, 0, 0), 'Q');
	assert_int_equal(fw_cfg_byte(&p, 0, 3), 'U');
	assert_int_equal(fw_cfg_byte(&p, 0, 4), 0);
	assert_int_equal(fw_cfg_byte(&p, 1, 0), 1); /* no DMA */
	assert_int_equal(fw_cfg_byte(&p, 5, 0), 3);
	assert_int_equal(fw_cfg_byte(&p, 5, 1), 0);
	assert_int_equal(fw_cfg_byte(&p, 3, 3), 0x08);
	assert_int_equal(fw_cfg_byte(&p, 0x19, 0), 0);
}

static void test_multiboot_header(void **state)
{
	u32 img[2048] = { 0 };

	(void)state;
	assert_int_equal(mb_find_header(img, sizeof(img)), -ENOENT);
	img[44] = MB_HEADER_MAGIC;
	img[46] = -MB_HEADER_MAGIC;
	assert_int_equal(mb_find_header(img, sizeof(img)), 44 * 4);
	img[46]++; /* bad checksum: named as such, not "no header" */
	assert_int_equal(mb_find_header(img, sizeof(img)), -EBADMSG);
}

static void test_multiboot_info(void **state)
{
	u8 *mem = calloc(1, 0x100000);
	struct mb_boot b = { 128 << 20, "a b", 0x200000, 0x1000, 0 };
	const struct mb_info *mi;
	const struct mb_mmap_entry *e;

	(void)state;
	assert_int_equal(mb_info_build(mem, &b), MB_INFO_GPA);
	mi = (const void *)(mem + MB_INFO_GPA);
	assert_int_equal(mi->mem_upper, (128 << 10) - 1024);
	assert_string_equal((const char *)mem + mi->cmdline, "a b");
	assert_int_equal(mi->mods_count, 1);
	assert_true(mi->flags & MB_INFO_MMAP);
	e = (const void *)(mem + mi->mmap_addr + mi->mmap_length - sizeof(*e));
	assert_int_equal(e->base_addr + e->length, 128 << 20);
	assert_int_equal(e->type, 1);
	/* Moved after a low image: pointers and the reserved entry follow. */
	b.info_gpa = 0xb000;
	assert_int_equal(mb_info_build(mem, &b), 0xb000);
	mi = (const void *)(mem + 0xb000);
	assert_string_equal((const char *)mem + mi->cmdline, "a b");
	e = (const void *)(mem + mi->mmap_addr);
	assert_int_equal(e[1].base_addr, 0xb000);
	assert_int_equal(e[1].length, 0x1000);
	assert_int_equal(e[1].type, 2);
	free(mem);
}

/* A multiboot kernel of either ELF class: the header at 0x100, text at
 * 1 MiB (file 0x1000), data after it (file 0x1100), entry in the text. */
#define MB_FILE 0x1200
static u8 mb_img[MB_FILE];

static void mb_elf(bool elf64, u64 data_paddr, u64 text_vaddr)
{
	struct mb_header h = { .magic = MB_HEADER_MAGIC,
			       .checksum = -MB_HEADER_MAGIC };

	memset(mb_img, 0, sizeof(mb_img));
	memcpy(mb_img,
	       "\x7f"
	       "ELF",
	       4);
	mb_img[EI_CLASS] = elf64 ? ELFCLASS64 : ELFCLASS32;
	mb_img[EI_DATA] = ELFDATA2LSB;
	mb_img[EI_VERSION] = EV_CURRENT;
	if (elf64) {
		struct elf64_ehdr e = { .e_type = ET_EXEC,
					.e_machine = EM_X86_64,
					.e_version = EV_CURRENT,
					.e_entry = 0x100004,
					.e_phoff = sizeof(e),
					.e_ehsize = sizeof(e),
					.e_phentsize =
						sizeof(struct elf64_phdr),
					.e_phnum = 2 };
		struct elf64_phdr ph[2] = {
			{ PT_LOAD, PF_R | PF_X, 0x1000, text_vaddr, 0x100000,
			  0x100, 0x100, 0x1000 },
			{ PT_LOAD, PF_R | PF_W, 0x1100, data_paddr, data_paddr,
			  0x80, 0x1000, 0x1000 },
		};

		memcpy(mb_img + EI_NIDENT, (u8 *)&e + EI_NIDENT,
		       sizeof(e) - EI_NIDENT);
		memcpy(mb_img + sizeof(e), ph, sizeof(ph));
	} else {
		struct elf32_ehdr e = { .e_type = ET_EXEC,
					.e_machine = EM_386,
					.e_version = EV_CURRENT,
					.e_entry = 0x100004,
					.e_phoff = sizeof(e),
					.e_ehsize = sizeof(e),
					.e_phentsize =
						sizeof(struct elf32_phdr),
					.e_phnum = 2 };
		struct elf32_phdr ph[2] = {
			{ PT_LOAD, 0x1000, (u32)text_vaddr, 0x100000, 0x100,
			  0x100, PF_R | PF_X, 0x1000 },
			{ PT_LOAD, 0x1100, (u32)data_paddr, (u32)data_paddr,
			  0x80, 0x1000, PF_R | PF_W, 0x1000 },
		};

		memcpy(mb_img + EI_NIDENT, (u8 *)&e + EI_NIDENT,
		       sizeof(e) - EI_NIDENT);
		memcpy(mb_img + sizeof(e), ph, sizeof(ph));
	}
	memcpy(mb_img + 0x100, &h, sizeof(h));
	for (unsigned i = 0x1000; i < MB_FILE; i++)
		mb_img[i] = (u8)(i * 3 + 1);
}

/* Both classes load through the one ELF loader, at p_paddr whatever
 * p_vaddr says; its checks (overlap, bounds with wrap-around) apply to
 * ELF32 too, and a refused image leaves guest memory untouched. */
static void test_multiboot_elf(void **state)
{
	const u64 mem_size = 4ULL << 20;
	u8 *mem = malloc(mem_size);
	struct mb_load_info li;

	(void)state;
	for (int c = 0; c < 2; c++) {
		memset(mem, 0xa5, mem_size);
		mb_elf(c, 0x102000, 0xc0100000);
		assert_int_equal(mb_load(mb_img, MB_FILE, mem, mem_size, &li),
				 0);
		assert_int_equal(li.entry, 0x100004);
		assert_int_equal(li.start, 0x100000);
		assert_int_equal(li.end, 0x103000);
		assert_memory_equal(mem + 0x100000, mb_img + 0x1000, 0x100);
		assert_memory_equal(mem + 0x102000, mb_img + 0x1100, 0x80);
		assert_int_equal(mem[0x102080], 0); /* bss */
		assert_int_equal(mem[0x100100], 0xa5);
		/* A data segment over the text: refused, nothing written. */
		memset(mem, 0xa5, mem_size);
		mb_elf(c, 0x1000f0, 0x100000);
		assert_int_equal(mb_load(mb_img, MB_FILE, mem, mem_size, &li),
				 -EINVAL);
		for (u64 i = 0; i < mem_size; i++)
			assert_int_equal(mem[i], 0xa5);
		/* Past the end of guest memory, and a wrapping end. */
		mb_elf(c, mem_size - 0x800, 0x100000);
		assert_int_equal(mb_load(mb_img, MB_FILE, mem, mem_size, &li),
				 -EFAULT);
		mb_elf(c, 0xfffff800, 0x100000);
		assert_int_equal(mb_load(mb_img, MB_FILE, mem, mem_size, &li),
				 -EFAULT);
		/* Conventional memory is a second window. */
		mb_elf(c, 0x8000, 0x100000);
		assert_int_equal(mb_load(mb_img, MB_FILE, mem, mem_size, &li),
				 0);
		assert_int_equal(li.start, 0x8000);
		assert_memory_equal(mem + 0x8000, mb_img + 0x1100, 0x80);
	}
	free(mem);
}

/* The masked 8259A pair (pic.c), port offsets as the port table gives. */
static void test_pic_masked(void **state)
{
	struct guest g = { .kind = GUEST_MULTIBOOT };
	struct vcpu v = { .guest = &g };
	(void)state;
	g.plat.pic[0].imr = g.plat.pic[1].imr = 0xff;
	assert_int_equal(pic_master_in(&v, 1, 1), 0xff); /* power-up */
	assert_int_equal(pic_master_in(&v, 0, 1), 0); /* nothing requested */
	/* ICW1-4 then OCW1: only the OCW1 is the mask. */
	pic_slave_out(&v, 0, 1, 0x11);
	assert_int_equal(pic_slave_in(&v, 1, 1), 0); /* ICW1 cleared it */
	pic_slave_out(&v, 1, 1, 0x70);
	pic_slave_out(&v, 1, 1, 0x02);
	pic_slave_out(&v, 1, 1, 0x01);
	assert_int_equal(pic_slave_in(&v, 1, 1), 0);
	pic_slave_out(&v, 1, 1, 0xff);
	assert_int_equal(pic_slave_in(&v, 1, 1), 0xff);
	assert_int_equal(pic_master_in(&v, 1, 1), 0xff); /* apart */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acpi_tables_parse_back),
		cmocka_unit_test(test_acpi_facs_pm1),
		cmocka_unit_test(test_acpi_ioapic_reset_hpet),
		cmocka_unit_test(test_acpi_dsdt_disk),
		cmocka_unit_test(test_pm_timer_rate),
		cmocka_unit_test(test_fw_cfg_items),
		cmocka_unit_test(test_multiboot_header),
		cmocka_unit_test(test_multiboot_info),
		cmocka_unit_test(test_multiboot_elf),
		cmocka_unit_test(test_pic_masked),
	};

	return cmocka_run_group_tests_name("platform", tests, NULL, NULL);
}
