// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/guest.c - create a guest from an ELF64 image or a Linux bzImage
 * (memory from the pool,
 * 2 MiB aligned for large nested pages; its own page tables; boot info;
 * one VMCB per vCPU) and tear it down returning every page. */
#include "arch/errno.h"
#include "hv/boot_prof.h"
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/loader/bzimage.h"
#include "hv/loader/elf.h"
#include "hv/loader/linux_boot.h"
#include "hv/loader/multiboot.h"
#include "hv/loader/place.h"
#include "hv/smp/time.h"
#include "hv/features.h"
#include "hv/options/options.h"
#include "hv/percpu.h"
#include "hv/guest/guest.h"
#include "include/minhv/guest_layout.h"
#include "hv/guest/pt.h"
#include "hv/vcpu/vcpu_fpu.h"
#include "hv/vmcb/asid.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mm.h"

_Static_assert(sizeof(struct guest) <= PAGE_SIZE, "guest fits a page");

_Static_assert(YIELD_NONE == HV_YIELD_NONE && YIELD_ANY == HV_YIELD_ANY &&
		       YIELD_DIRECTED == HV_YIELD_DIRECTED,
	       "pause_yield values are the guest ABI's");
_Static_assert(sizeof(struct vcpu) <= PAGE_SIZE, "vcpu fits a page");

static hpa_t alloc_mem(u64 size)
{
	hpa_t m = hpa(0);

	/* 1 GiB alignment lets NPT map whole gigabytes. */
	if (g_features.page1g && size >= SZ_1G)
		m = page_alloc(size / PAGE_SIZE, SZ_1G / PAGE_SIZE);
	if (!m.v)
		m = page_alloc(size / PAGE_SIZE, SZ_2M / PAGE_SIZE);
	return m;
}

static void fill_boot_info(struct guest *g, const struct guest_params *p)
{
	struct hv_boot_info *bi =
		(void *)((u8 *)g->mem_host + GUEST_BOOT_INFO_GPA);
	size_t n;

	bi->magic = HV_BOOT_INFO_MAGIC;
	bi->mem_size = g->mem_size;
	bi->nr_vcpus = g->nr_vcpus;
	bi->flags = (p->bench ? HV_BI_BENCH : 0) |
		    (g_features.nrips ? HV_BI_NRIP : 0) |
		    (nested_pause_filter() ? HV_BI_NESTED : 0);
	bi->stack_top = g->stack_top;
	memcpy(bi->name, g->name, sizeof(bi->name));
	n = p->tests ? strlen(p->tests) : 0;
	if (n >= sizeof(bi->tests))
		n = sizeof(bi->tests) - 1;
	if (n)
		memcpy(bi->tests, p->tests, n);
	bi->pause_mode = g->pause.mode;
	bi->pause_count = g->pause.count;
	bi->pause_threshold = g->pause.threshold;
	bi->nr_cpus = g->ncpus;
	bi->pause_yield = g->yield;
	bi->slice_us = (u32)(g->slice_tsc * 1000 / (g_tsc_khz ? g_tsc_khz : 1));
}

/* Under a hypervisor that offers the PAUSE filter (nested KVM), L0's count
 * and threshold may apply to our guest. TCG also sets CPUID.1:ECX[31] but
 * has no filter, and there every intercepted PAUSE exits exactly. */
bool nested_pause_filter(void)
{
	return g_features.hypervisor && g_features.pause_filter;
}

static int make_vcpu(struct guest *g, u32 id)
{
	struct vcpu *v = page_alloc_ptr(1);
	struct vmcb_guest vg;

	if (!v)
		return -E2BIG;
	g->vcpus[id] = v;
	v->vmcb = page_alloc_ptr(1);
	if (!v->vmcb)
		return -E2BIG;
	v->vmcb_hpa = ptr_to_hpa(v->vmcb);
	v->guest = g;
	v->id = id;
	v->state = VCPU_IDLE;
	v->se = (struct sched_entity){ .owner = g,
				       .owner_id = g->serial,
				       .allowed = &g->cpus,
				       .slice = g->slice_tsc,
				       .id = id,
				       .cpu = vcpu_home_cpu(v),
				       .last_cpu = SCHED_NO_CPU };
	v->mtrr_def_type = MTRR_DEF_TYPE_E | MTRR_TYPE_WB;
	if (vcpu_fpu_pages()) {
		void *area = page_alloc_ptr(vcpu_fpu_pages());

		if (!area)
			return -E2BIG;
		vcpu_fpu_init(v, area);
	} else {
		vcpu_fpu_init(v, NULL);
	}
	vg = (struct vmcb_guest){
		.asid = g->asid,
		.iopm = g->iopm,
		.msrpm = g->msrpm,
		.ncr3 = g->npt.root,
		.cr3 = g->cr3,
		.rip = g->entry,
		.rsp = gpa(g->stack_top - id * GUEST_STACK_SIZE),
	};
	vmcb_build(v->vmcb, &g_features, &g->pause, &vg);
	/* A foreign kernel does not speak minhv's hypercall ABI: its VMMCALL
	 * raises #UD, as on bare metal and bare QEMU, the yardstick for these
	 * guests (not intercepted, VMMCALL is #UD: APM vol 3, VMMCALL). */
	if (g->kind != GUEST_MINHV)
		vmcb_clr_intercept(v->vmcb, INTERCEPT_VMMCALL);
	if (guest_has_platform(g))
		vlapic_init(&v->lapic,
			    &(struct vlapic_config){
				    .vcpu_id = id,
				    .bsp = id == 0,
				    .x2apic = g_features.x2apic,
				    .tsc_deadline = true, /* CPUID says so */
				    .tsc_khz = g_tsc_khz,
				    .maxphyaddr = (u8)g_features.phys_addr_bits,
			    });
	if (g->kind == GUEST_MULTIBOOT) {
		/* Multiboot 3.2: 32-bit flat protected mode, paging off. */
		vmcb_set_flat32(v->vmcb, (u32)g->entry.v);
		v->vmcb->save.rax = MB_BOOT_MAGIC;
		v->gprs.rbx = g->cr3; /* the boot information (EBX) */
		return 0;
	}
	v->gprs.rdi = GUEST_BOOT_INFO_GPA;
	if (g->kind == GUEST_LINUX)
		linux_vcpu_setup(v);
	return 0;
}

u32 vcpu_home_cpu(const struct vcpu *v)
{
	const struct guest *g = v->guest;
	int c = g->ncpus ? cpuset_nth(&g->cpus, v->id % g->ncpus) : -1;

	return c < 0 ? 0 : (u32)c;
}

enum guest_kind guest_kind_of(const void *img, size_t size)
{
	if (bzimage_detect(img, size))
		return GUEST_LINUX;
	switch (mb_find_header(img, size)) {
	case -ENOENT:
		return GUEST_MINHV;
	case -EBADMSG:
		/* The multiboot magic with a wrong checksum, in a file that
		 * is no ELF64 image: a broken multiboot kernel, which
		 * mb_load() names as such (not as a bad ELF magic). */
		return elf_detect(img, size) ? GUEST_MINHV : GUEST_MULTIBOOT;
	default:
		return GUEST_MULTIBOOT;
	}
}

/* The multiboot image, module 0, boot information and ACPI tables; the
 * platform devices on. The boot information GPA goes in g->cr3 until the
 * vCPUs take it as EBX (CR3 itself is 0: paging is off). */
static int load_multiboot(struct guest *g, const struct guest_params *p)
{
	const struct place_mem m = { g->mem_host, g->mem_size };
	struct mb_load_info li;
	struct mb_boot mb = { g->mem_size, p->cmdline, 0, 0, 0 };

	/* Guest-physical memory ends below the local APIC at 0xFEE00000,
	 * whose page must stay unmapped so accesses fault (NPF). */
	if (g->mem_size > MB_MAX_MEM) {
		pr_err("guest %s: %llu MiB of memory is more than a multiboot guest can have (%llu MiB: RAM must end below the APIC page at 0xfee00000): lower guest_mem=\n",
		       g->name, (unsigned long long)(g->mem_size >> 20),
		       (unsigned long long)(MB_MAX_MEM >> 20));
		return -EINVAL;
	}
	prof_mark(PROF_IMAGE);
	if (mb_load(p->image, p->image_size, g->mem_host, g->mem_size, &li)) {
		pr_err("guest %s: the multiboot image cannot be loaded\n",
		       g->name);
		return -EINVAL;
	}
	if (p->cmdline && strlen(p->cmdline) >= MB_CMDLINE_MAX) {
		pr_err("guest %s: command line longer than %u bytes\n", g->name,
		       MB_CMDLINE_MAX - 1);
		return -EINVAL;
	}
	/* Module 0 and the boot information where nothing else is. */
	mb.mod_size = p->initrd_size;
	if (mb_boot_place(&li, &mb))
		return -EINVAL;
	if (mb.mod_size) {
		void *dst = place_dst(
			&m, &(struct place_win){ PLACE_FLOOR, g->mem_size },
			mb.mod_start, mb.mod_size);

		if (!dst)
			return -EINVAL;
		memcpy(dst, p->initrd, mb.mod_size);
	}
	g->cr3 = mb_info_build(g->mem_host, &mb);
	if (!g->cr3)
		return -EINVAL;
	prof_mark(PROF_PLATFORM);
	acpi_tables_build((u8 *)g->mem_host + MB_BIOS_START, MB_BIOS_START,
			  g->nr_vcpus, p->disk != NULL);
	g->entry = gpa(li.entry);
	g->stack_top = g->mem_size;
	g->plat = (struct platform){ .nr_cpus = g->nr_vcpus,
				     .console_rate = g->con_rate,
				     .ram_size = g->mem_size,
				     .tsc_khz = g_tsc_khz,
				     .pm_tsc0 = rdtsc(),
				     .pm = ACPI_PM_INIT(MB_BIOS_START),
				     .rtc = RTC_INIT,
				     /* kvm-unit-tests' device (testdev.c) */
				     .testdev = true,
				     /* A masked PIC pair (pic.c). */
				     .pic = { { .imr = 0xff },
					      { .imr = 0xff } } };
	platform_reset(&g->plat);
	return 0;
}

static int load_elf64(struct guest *g, const struct guest_params *p)
{
	struct elf_load_info info;
	gpa_t cr3;
	int r;

	/* The image must end below the vCPU stacks at the top of memory. */
	prof_mark(PROF_IMAGE);
	r = elf_load_limit(p->image, p->image_size, g->mem_host, g->mem_size,
			   g->mem_size - g->nr_vcpus * GUEST_STACK_SIZE, &info);
	if (r) {
		pr_err("guest %s: the ELF image cannot be loaded (%d)\n",
		       g->name, r);
		return -EINVAL;
	}
	g->entry = info.entry;
	prof_mark(PROF_GUEST_PT);
	if (guest_pt_build(g->mem_host, g->mem_size, &cr3)) {
		pr_err("guest %s: cannot build its page tables\n", g->name);
		return -EINVAL;
	}
	g->cr3 = cr3.v;
	g->stack_top = g->mem_size;
	return 0;
}

/* A Linux bzImage: laid out for the 64-bit boot protocol on identity page
 * tables that include page 0 (the decompressor reads the BIOS data area
 * before it has page tables of its own), with the small PC of
 * hv/platform/ (16550, isa-debug-exit, fw_cfg, PM timer, a vLAPIC per vCPU,
 * ACPI tables whose MADT lists them; Linux starts the APs by INIT-SIPI). */
static int load_linux(struct guest *g, const struct guest_params *p)
{
	struct linux_layout l;
	gpa_t cr3;
	int r;

	/* RAM ends below the 32-bit device hole: the APIC page at
	 * 0xFEE00000 must stay unmapped so accesses fault (NPF). */
	if (g->mem_size > LINUX_MAX_MEM) {
		pr_err("guest %s: %llu MiB of memory is more than a Linux guest can have (%llu MiB: RAM must end below the APIC page at 0xfee00000): lower guest_mem=\n",
		       g->name, (unsigned long long)(g->mem_size >> 20),
		       (unsigned long long)(LINUX_MAX_MEM >> 20));
		return -EINVAL;
	}
	prof_mark(PROF_IMAGE);
	r = linux_boot_build(g->mem_host, g->mem_size, p->image, p->image_size,
			     p->cmdline, p->initrd, p->initrd_size, &l);
	if (r)
		return r;
	prof_mark(PROF_GUEST_PT);
	if (guest_pt_build(g->mem_host, g->mem_size, &cr3) ||
	    guest_pt_map_page0(g->mem_host, g->mem_size, cr3)) {
		pr_err("guest %s: cannot build its page tables\n", g->name);
		return -EINVAL;
	}
	prof_mark(PROF_PLATFORM);
	/* The TSC rate minhv measured: Linux has no PIT to calibrate it
	 * early (docs/GUESTS.md "Running Linux"). */
	if (linux_cmdline_tsc(g->mem_host, &l, g_tsc_khz) == 1)
		pr_info("linux: tsc_early_khz=%llu appended to the command line (the TSC rate minhv measured)\n",
			(unsigned long long)g_tsc_khz);
	/* The disk's window is a device's, as a PC's firmware reports it. */
	if (p->disk &&
	    linux_e820_reserve(g->mem_host, VIRTIO_BLK_GPA, PAGE_SIZE)) {
		pr_err("guest %s: no room in the e820 map\n", g->name);
		return -E2BIG;
	}
	/* The RSDP first, in the BIOS area Linux scans without EFI. */
	acpi_tables_build((u8 *)g->mem_host + LINUX_BIOS_START,
			  LINUX_BIOS_START, g->nr_vcpus, p->disk != NULL);
	g->cr3 = cr3.v;
	g->entry = l.entry;
	g->stack_top = LINUX_STACK_TOP;
	g->plat = (struct platform){
		.nr_cpus = g->nr_vcpus,
		.console_rate = g->con_rate,
		.ram_size = g->mem_size,
		.pm_tsc0 = rdtsc(),
		.tsc_khz = g_tsc_khz,
		.pm = ACPI_PM_INIT(LINUX_BIOS_START),
		.rtc = RTC_INIT,
		/* A masked PIC pair (pic.c). */
		.pic = { { .imr = 0xff }, { .imr = 0xff } },
	};
	platform_reset(&g->plat);
	return 0;
}

/* pc-testdev's 64 KiB at 0xff000000: pool pages the NPT maps there. */
static int map_testdev(struct guest *g)
{
	const u64 pages = TESTDEV_IOMEM_SIZE / PAGE_SIZE;

	if (!g->plat.testdev)
		return 0;
	g->testdev_mem = page_alloc(pages, 1);
	if (!g->testdev_mem.v)
		return -E2BIG;
	memset(hpa_to_ptr(g->testdev_mem), 0, TESTDEV_IOMEM_SIZE);
	return npt_map(&g->npt, gpa(TESTDEV_IOMEM_GPA), g->testdev_mem,
		       TESTDEV_IOMEM_SIZE);
}

#define DISK_PAGES (ALIGN_UP(sizeof(struct virtio_blk), PAGE_SIZE) / PAGE_SIZE)

/* The virtio disk on a foreign guest's platform (after its loader, which
 * sets the platform up and declares the disk in its ACPI tables). */
static int add_disk(struct guest *g, const struct guest_params *p)
{
	struct virtio_blk *d;

	if (!p->disk)
		return 0;
	if (!guest_has_platform(g)) {
		pr_warn("guest %s: disk= is for multiboot and Linux guests: no disk\n",
			g->name);
		return 0;
	}
	d = page_alloc_ptr(DISK_PAGES);
	if (!d)
		return -E2BIG;
	virtio_blk_init(d, &g->plat, g->mem_host, g->mem_size, p->disk,
			p->disk_size / VIRTIO_BLK_SECTOR_SIZE, p->disk_ro);
	g->plat.disk = d;
	pr_info("guest %s: virtio disk of %llu sectors%s at %#llx, GSI %u\n",
		g->name, (unsigned long long)d->sectors,
		p->disk_ro ? " (read-only)" : "",
		(unsigned long long)VIRTIO_BLK_GPA, VIRTIO_BLK_GSI);
	return 0;
}

static bool cpu_online(u32 c)
{
	return c < g_ncpus && g_percpu[c] &&
	       __atomic_load_n(&g_percpu[c]->online, __ATOMIC_ACQUIRE);
}

/* g's CPUs: p->cpus (the options' cpus=, every one of them online) or
 * every online CPU. A bitmap of its own, sized for this machine. */
static int take_cpus(struct guest *g, const struct guest_params *p)
{
	u64 pages = ALIGN_UP(CPUSET_WORDS(g_ncpus) * 8, PAGE_SIZE) / PAGE_SIZE;
	const char *s = p->cpus ? p->cpus : "";
	u32 lo, hi;
	int r;

	g->cpus = (struct cpuset){ g_ncpus, page_alloc_ptr(pages) };
	if (!g->cpus.w)
		return -E2BIG;
	if (cpulist_all(s))
		for (u32 c = 0; c < g_ncpus; c++)
			if (cpu_online(c))
				cpuset_add(&g->cpus, c);
	while ((r = cpulist_next(&s, &lo, &hi)) > 0) {
		for (u32 c = lo; c <= hi; c++) {
			if (!cpu_online(c)) {
				pr_err("guest %s: cpus=%s names CPU %u, which is not online (%u CPUs)\n",
				       g->name, p->cpus, c, g_ncpus);
				return -EINVAL;
			}
			cpuset_add(&g->cpus, c);
		}
	}
	g->ncpus = cpuset_count(&g->cpus);
	if (r < 0 || !g->ncpus) {
		pr_err("guest %s: cpus=%s names no CPU\n", g->name, p->cpus);
		return -EINVAL;
	}
	return 0;
}

static int build(struct guest *g, const struct guest_params *p)
{
	int r;

	r = take_cpus(g, p);
	if (r)
		return r;
	g->asid = asid_alloc();
	if (!g->asid)
		return -EBUSY;
	prof_mark(PROF_GUEST_MEM);
	g->mem = alloc_mem(g->mem_size);
	if (!g->mem.v) {
		/* The page pool holds every guest's memory (docs/OPTIONS.md):
		 * name the options, not just the errno. */
		pr_err("guest %s: guest_mem=%lluM does not fit the page pool (%llu of %llu MiB free): raise pool= to guest_mem plus 64 MiB\n",
		       g->name, (unsigned long long)(g->mem_size >> 20),
		       (unsigned long long)(mm_free_pages() >> 8),
		       (unsigned long long)(mm_total_pages() >> 8));
		return -E2BIG;
	}
	g->mem_host = hpa_to_ptr(g->mem);
	g->kind = guest_kind_of(p->image, p->image_size);
	r = g->kind == GUEST_LINUX     ? load_linux(g, p) :
	    g->kind == GUEST_MULTIBOOT ? load_multiboot(g, p) :
					 load_elf64(g, p);
	if (r || (r = add_disk(g, p)))
		return r;
	prof_mark(PROF_NPT);
	if (npt_build(&g->npt, g->mem, g->mem_size, g_features.page1g) ||
	    map_testdev(g))
		return -E2BIG;
	prof_mark(PROF_VCPUS);
	g->iopm = page_alloc(IOPM_PAGES, 1);
	g->msrpm = page_alloc(MSRPM_PAGES, 1);
	if (!g->iopm.v || !g->msrpm.v)
		return -E2BIG;
	vmcb_iopm_build(hpa_to_ptr(g->iopm));
	vmcb_msrpm_build(hpa_to_ptr(g->msrpm));
	pause_policy_decide(&g_features, &p->pause, g->nr_vcpus > g->ncpus,
			    &g->pause);
	if (g->kind == GUEST_MINHV)
		fill_boot_info(g, p);
	g->vcpus_pages =
		ALIGN_UP(g->nr_vcpus * sizeof(void *), PAGE_SIZE) / PAGE_SIZE;
	g->vcpus = page_alloc_ptr(g->vcpus_pages);
	if (!g->vcpus)
		return -E2BIG;
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		r = make_vcpu(g, i);
		if (r)
			return r;
	}
	return 0;
}

static u64 serials; /* the last guest's serial; 0 is never one */

int guest_create(const struct guest_params *p, struct guest **out)
{
	struct guest *g;
	size_t n = p->name ? strlen(p->name) : 0;
	u64 free;
	int r;

	*out = NULL;
	if (!n || !p->nr_vcpus || p->nr_vcpus > GUEST_MAX_VCPUS) {
		pr_err("guest: needs a name and 1..%u vCPUs (got %u)\n",
		       GUEST_MAX_VCPUS, p->nr_vcpus);
		return -EINVAL;
	}
	if (p->mem_size < 2 * SZ_2M ||
	    p->nr_vcpus * GUEST_STACK_SIZE > ALIGN_UP(p->mem_size, SZ_2M) / 2) {
		pr_err("guest %s: %llu bytes of memory is too little for %u vCPUs: raise guest_mem= (or lower vcpus=)\n",
		       p->name, (unsigned long long)p->mem_size, p->nr_vcpus);
		return -EINVAL;
	}
	free = mm_free_pages();
	g = page_alloc_ptr(1);
	if (!g) {
		pr_err("guest %s: the page pool is exhausted: raise pool=\n",
		       p->name);
		return -E2BIG;
	}
	memcpy(g->name, p->name, n < sizeof(g->name) ? n : sizeof(g->name) - 1);
	g->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	g->mem_size = ALIGN_UP(p->mem_size, SZ_2M);
	g->nr_vcpus = p->nr_vcpus;
	g->slice_tsc = (u64)(p->sched.slice_us ? p->sched.slice_us :
						 SCHED_SLICE_US_DEFAULT) *
		       g_tsc_khz / 1000;
	if (!g->slice_tsc)
		g->slice_tsc = 1;
	g->yield = p->sched.yield;
	g->window_dynamic = p->sched.window_dynamic;
	g->bench = p->bench;
	g->time_ms = p->time_ms;
	g->con_rate = p->console_rate;
	g->con_budget = p->console_rate; /* one second's worth to start */
	r = build(g, p);
	if (r == -E2BIG)
		pr_err("guest %s: the page pool (%llu MiB free) is too small for %llu MiB of guest memory and its tables: raise pool= (or lower guest_mem=)\n",
		       g->name, (unsigned long long)(free >> 8),
		       (unsigned long long)(g->mem_size >> 20));
	if (r) {
		guest_destroy(g);
		return r;
	}
	prof_mark(PROF_GUEST);
	pr_info("guest %s: %llu MiB at %#llx, %u vCPU(s), ASID %u, entry %#llx, NPT %llu x 1G %llu x 2M %llu x 4K\n",
		g->name, (unsigned long long)(g->mem_size >> 20),
		(unsigned long long)g->mem.v, g->nr_vcpus, g->asid,
		(unsigned long long)g->entry.v, (unsigned long long)g->npt.n1g,
		(unsigned long long)g->npt.n2m, (unsigned long long)g->npt.n4k);
	pr_info("guest %s: pause: %s\n", g->name, g->pause.why);
	if (g->nr_vcpus > g->ncpus)
		pr_info("guest %s: %u vCPUs share %u CPU(s): slice %llu us, pause_yield=%s, pause_window=%s\n",
			g->name, g->nr_vcpus, g->ncpus,
			(unsigned long long)(g->slice_tsc * 1000 /
					     (g_tsc_khz ? g_tsc_khz : 1)),
			g->yield == YIELD_NONE ? "none" :
			g->yield == YIELD_ANY  ? "any" :
						 "directed",
			g->window_dynamic ? "dynamic" : "static");
	*out = g;
	return 0;
}

void guest_destroy(struct guest *g)
{
	if (!g)
		return;
	for (u32 i = 0; g->vcpus && i < g->nr_vcpus; i++) {
		struct vcpu *v = g->vcpus[i];

		if (!v)
			continue;
		if (v->vmcb)
			page_free(v->vmcb_hpa, 1);
		if (v->fpu)
			page_free(ptr_to_hpa(v->fpu), vcpu_fpu_pages());
		page_free(ptr_to_hpa(v), 1);
	}
	if (g->vcpus)
		page_free(ptr_to_hpa(g->vcpus), g->vcpus_pages);
	if (g->msrpm.v)
		page_free(g->msrpm, MSRPM_PAGES);
	if (g->iopm.v)
		page_free(g->iopm, IOPM_PAGES);
	npt_destroy(&g->npt);
	if (g->testdev_mem.v)
		page_free(g->testdev_mem, TESTDEV_IOMEM_SIZE / PAGE_SIZE);
	if (guest_has_platform(g) && g->plat.disk)
		page_free(ptr_to_hpa(g->plat.disk), DISK_PAGES);
	if (g->mem.v)
		page_free(g->mem, g->mem_size / PAGE_SIZE);
	if (g->asid)
		asid_free(g->asid);
	if (g->cpus.w)
		page_free(ptr_to_hpa(g->cpus.w),
			  ALIGN_UP(CPUSET_WORDS(g->cpus.nbits) * 8, PAGE_SIZE) /
				  PAGE_SIZE);
	page_free(ptr_to_hpa(g), 1);
}
