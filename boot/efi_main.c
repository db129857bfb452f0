// SPDX-License-Identifier: GPL-2.0-only
/* boot/efi_main.c - the UEFI entry: options, ACPI, console, allocations,
 * the guest image, then ExitBootServices and the hand-off to hv_main(). */
#include "hv/console.h"
#include "boot/efi.h"
#include "arch/cpu.h"
#include "arch/fw_cfg.h"
#include "arch/uart_regs.h"
#include "hv/boot_prof.h"
#include "arch/virtio_regs.h"
#include "hv/features.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/percpu.h"
#include "hv/run/run.h"
#include "hv/stop.h"

#define CFG_PATH L"\\minhv\\minhv.cfg"

extern const char builtin_guest[], builtin_guest_end[];
void switch_stack_call(u64 stack_top, void (*fn)(void *), void *arg);

static struct boot_info g_boot;

static void *acpi_alloc(size_t bytes)
{
	return efi_alloc_pool(bytes);
}

/* Fatal before the hand-off: say why, then end like any failed run. */
static EFI_STATUS boot_fail(EFI_STATUS st, const char *what)
{
	pr_err("boot: %s\n", what);
	stop_configure(g_options.exit, g_boot.under_qemu);
	if (g_boot.under_qemu || g_options.exit == EXIT_QEMU)
		hv_stop(STOP_FAIL);
	return st; /* back to the firmware's boot manager */
}

static int parse_all_options(EFI_HANDLE image)
{
	UINTN len = 0;
	EFI_STATUS st;
	char *text;
	int errors = 0;

	options_defaults(&g_options);
	text = efi_read_file(image, CFG_PATH, ~0ULL, &len, &st);
	if (EFI_ERROR(st)) {
		pr_err("boot: cannot read \\minhv\\minhv.cfg (EFI status %#llx)\n",
		       (unsigned long long)st);
		errors++;
	}
	if (text)
		errors += options_parse(&g_options, text, len,
					"\\minhv\\minhv.cfg");
	/* The command line comes last so it overrides the file. */
	text = efi_load_options(image, &len);
	if (text)
		errors += options_parse(&g_options, text, len, "load options");
	return errors;
}

static void setup_console(void)
{
	struct uart u = { .space = UART_IO,
			  .base = UART_COM1_PORT,
			  .baud = g_options.baud };
	const struct spcr_info *sp = &g_boot.acpi.spcr;

	if (g_options.console == CONSOLE_IO) {
		u.base = g_options.console_addr;
	} else if (g_options.console == CONSOLE_MMIO) {
		u.space = UART_MMIO;
		u.base = g_options.console_addr;
		u.reg_shift = 2;
	} else if (sp->present &&
		   (sp->interface_type == 0 || sp->interface_type == 1 ||
		    sp->interface_type == 0x12)) {
		/* DBG2 serial subtypes 0, 1, 0x12: 16550-compatible. */
		u.space = sp->space_id == 1 ? UART_IO : UART_MMIO;
		u.base = sp->address;
		u.reg_shift = sp->bit_width >= 32 ? 2 : 0;
		if (sp->baud && !g_options.baud)
			u.baud = sp->baud;
	}
	console_setup(&u);
	if (g_options.console == CONSOLE_AUTO && sp->present &&
	    u.base != sp->address)
		pr_warn("console: SPCR interface type %#x is not a 16550; using COM1 (console= overrides)\n",
			sp->interface_type);
	pr_info("console: 16550 at %s %#llx, %s\n",
		u.space == UART_IO ? "I/O port" : "MMIO",
		(unsigned long long)u.base,
		g_options.console != CONSOLE_AUTO    ? "from console=" :
		sp->present && u.base == sp->address ? "from SPCR" :
						       "COM1 default");
}

/* An option's ESP path (forward or back slashes) as UEFI spells it. */
static void esp_path(const char *name, CHAR16 *path, UINTN n)
{
	UINTN i;

	for (i = 0; name[i] && i < n - 1; i++)
		path[i] = name[i] == '/' ? '\\' : name[i];
	path[i] = 0;
}

/* A file named in an option from the ESP. */
static void *read_esp(EFI_HANDLE image, const char *opt, const char *name,
		      UINTN *size)
{
	CHAR16 path[128];
	EFI_STATUS st;
	void *p;

	esp_path(name, path, ARRAY_SIZE(path));
	p = efi_read_file(image, path, ~0ULL, size, &st);
	if (!p)
		pr_err("boot: %s '%s': %s\n", opt, name,
		       EFI_ERROR(st) ? "cannot be read" : "no such file");
	return p;
}

/* disk=: the whole image in memory (the guest's virtio disk works on this
 * copy), whole 512-byte sectors, at most DISK_MAX_BYTES. */
#define DISK_MAX_BYTES (4ULL << 30)
static EFI_STATUS load_disk(EFI_HANDLE image)
{
	const char *name = g_options.disk;
	CHAR16 path[128];
	EFI_STATUS st;
	UINTN size = 0;
	void *img;

	if (!name[0])
		return EFI_SUCCESS;
	esp_path(name, path, ARRAY_SIZE(path));
	img = efi_read_file(image, path, DISK_MAX_BYTES, &size, &st);
	if (!img) {
		if (st == EFI_BAD_BUFFER_SIZE)
			pr_err("boot: disk image '%s': %llu MiB, more than the %llu MiB a disk may have (minhv holds it in memory)\n",
			       name, (unsigned long long)(size >> 20),
			       DISK_MAX_BYTES >> 20);
		else if (st == EFI_OUT_OF_RESOURCES)
			pr_err("boot: disk image '%s': not enough free memory for its %llu MiB\n",
			       name, (unsigned long long)(size >> 20));
		else if (EFI_ERROR(st))
			pr_err("boot: disk image '%s': cannot be read (EFI status %#llx)\n",
			       name, (unsigned long long)st);
		else
			pr_err("boot: disk image '%s': no such file\n", name);
		return EFI_ERROR(st) ? st : EFI_NOT_FOUND;
	}
	if (!size || size % VIRTIO_BLK_SECTOR_SIZE) {
		pr_err("boot: disk image '%s': %llu bytes is not a whole number of 512-byte sectors\n",
		       name, (unsigned long long)size);
		return EFI_INVALID_PARAMETER;
	}
	g_boot.disk = img;
	g_boot.disk_size = size;
	pr_info("boot: disk image '%s': %llu sectors\n", name,
		(unsigned long long)(size / VIRTIO_BLK_SECTOR_SIZE));
	return EFI_SUCCESS;
}

static EFI_STATUS load_guest(EFI_HANDLE image)
{
	UINTN size = 0;
	void *img;

	if (!g_options.guest[0]) {
		g_boot.guest_image = builtin_guest;
		g_boot.guest_size = (u64)(builtin_guest_end - builtin_guest);
		memcpy(g_boot.guest_name, "guest", 6);
		return EFI_SUCCESS;
	}
	img = read_esp(image, "guest image", g_options.guest, &size);
	if (!img)
		return EFI_NOT_FOUND;
	g_boot.guest_image = img;
	g_boot.guest_size = size;
	memcpy(g_boot.guest_name, "user", 5);
	if (g_options.initrd[0]) {
		img = read_esp(image, "initrd", g_options.initrd, &size);
		if (!img)
			return EFI_NOT_FOUND;
		g_boot.initrd = img;
		g_boot.initrd_size = size;
	}
	return EFI_SUCCESS;
}

static void enter_hv(void *arg)
{
	hv_main(arg);
}

extern char _bss[], _ebss[]; /* linker.ld */

/* The image's entry, called by gnu-efi's crt0 (_start) only. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct uart com1 = { .space = UART_IO,
			     .base = UART_COM1_PORT,
			     .baud = 115200 };
	void *rsdp;
	u64 pool_pages, stack;
	u32 pool_mb;
	EFI_STATUS st;

	/* .bss has no bytes in minhv.efi (linker.ld); the loader zero-fills
	 * it, and this makes sure of it before anything is stored there. */
	memset(_bss, 0, (size_t)(_ebss - _bss));
	g_boot.tsc_efi_main = rdtsc();
	prof_start(g_boot.tsc_efi_main);
	efi_init(systab);
	/* COM1 until the options and SPCR say otherwise: early errors must
	 * reach the serial log too. */
	console_setup(&com1);
	g_boot.under_qemu = fw_cfg_present();
	if (g_boot.under_qemu)
		fw_cfg_read(FW_CFG_NB_CPUS, &g_boot.fw_cfg_cpus, 2);
	features_detect(&g_features);
	g_features.qemu = g_boot.under_qemu;

	if (parse_all_options(image))
		return boot_fail(EFI_INVALID_PARAMETER,
				 "bad options; run stopped (see above)");
	g_loglevel = g_options.loglevel;
	stop_configure(g_options.exit, g_boot.under_qemu);

	rsdp = efi_config_table(&efi_acpi20_guid);
	if (!rsdp)
		rsdp = efi_config_table(&efi_acpi10_guid);
	if (!rsdp)
		return boot_fail(
			EFI_NOT_FOUND,
			"no ACPI RSDP in the UEFI configuration table");
	if (acpi_parse(ptr_to_hpa(rsdp), &g_boot.acpi, acpi_alloc))
		return boot_fail(EFI_LOAD_ERROR, "ACPI tables unusable");
	setup_console();
	kprintf("\nminhv: minimal AMD SVM hypervisor, UEFI entry\n");
	options_print(&g_options);

	prof_mark(PROF_EFI_FILES);
	st = load_guest(image);
	if (EFI_ERROR(st))
		return boot_fail(st, "guest image unavailable");
	prof_mark(PROF_EFI_ALLOC);

	g_boot.trampoline = hpa(efi_alloc_pages(1, 0x9ffff));
	if (!g_boot.trampoline.v)
		return boot_fail(
			EFI_OUT_OF_RESOURCES,
			"no free page below 640 KiB for the AP trampoline");
	/* The pool: pool=, or (auto) the guest's memory and 64 MiB for
	 * everything else, plus stacks for every listed CPU. */
	pool_mb = g_options.pool_mb;
	if (!pool_mb)
		pool_mb =
			RUN_POOL_BASE_MB +
			run_guest_mem_mb(g_boot.guest_image, g_boot.guest_size);
	pool_pages = (u64)pool_mb << 8;
	pool_pages +=
		(u64)g_boot.acpi.ncpus * (STACK_PAGES + 3 * IST_PAGES + 8);
	g_boot.pool_base = hpa(efi_alloc_pages(pool_pages, 0xffffffffULL));
	if (!g_boot.pool_base.v)
		return boot_fail(
			EFI_OUT_OF_RESOURCES,
			"cannot allocate the page pool below 4 GiB (lower pool= or guest_mem=)");
	g_boot.pool_pages = pool_pages;
	if (mm_add_region(g_boot.pool_base, pool_pages))
		return boot_fail(EFI_OUT_OF_RESOURCES, "page pool unusable");
	stack = page_alloc(STACK_PAGES, 1).v;
	if (!stack)
		return boot_fail(EFI_OUT_OF_RESOURCES, "no boot CPU stack");
	/* After the pool, which must lie below 4 GiB: the disk may not. */
	st = load_disk(image);
	if (EFI_ERROR(st))
		return boot_fail(st, "disk image unavailable");

	pr_info("boot: exiting boot services\n");
	prof_mark(PROF_EXIT_BOOT);
	st = efi_exit_boot(image, &g_boot);
	if (EFI_ERROR(st)) {
		/* Boot services may be gone: only our own console from here. */
		pr_err("boot: ExitBootServices failed (status %#llx)\n",
		       (unsigned long long)st);
		hv_stop(STOP_FAIL);
	}
	g_boot.tsc_exit_boot = rdtsc();
	g_boot.bsp_stack_top = stack + STACK_PAGES * PAGE_SIZE;
	irq_disable();
	switch_stack_call(g_boot.bsp_stack_top, enter_hv, &g_boot);
	return EFI_ABORTED; /* not reached */
}
