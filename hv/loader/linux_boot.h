/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/loader/linux_boot.h - booting a Linux bzImage through the 64-bit boot
 * protocol (Linux Documentation/arch/x86/boot.rst): what minhv writes into
 * guest memory and where. */
#ifndef MINHV_HV_LOADER_LINUX_BOOT_H
#define MINHV_HV_LOADER_LINUX_BOOT_H

#include "arch/apicdef.h"
#include "arch/types.h"

struct vcpu;

/* Guest-physical layout below 1 MiB (all inside e820 RAM [0, 0x9fc00);
 * Linux reserves the first 1 MiB for itself and copies the zero page and
 * the command line before it uses any of it). */
#define LINUX_LOW_FLOOR 0x1000ULL /* boot data from here (page 0: the IVT) */
#define LINUX_GDT_GPA 0x5000ULL
#define LINUX_BOOT_PARAMS_GPA 0x7000ULL
#define LINUX_CMDLINE_GPA 0x8000ULL /* up to LINUX_CMDLINE_MAX bytes */
#define LINUX_CMDLINE_MAX 0x1000ULL
#define LINUX_BOOT_DATA_END (LINUX_CMDLINE_GPA + LINUX_CMDLINE_MAX)
#define LINUX_STACK_TOP 0xa000ULL /* only until the kernel sets its own */
#define LINUX_LOW_RAM_END 0x9fc00ULL /* below the EBDA, as on a PC */
/* Reserved: the BIOS area, where the guest's ACPI tables lie (Linux scans
 * 0xE0000-0xFFFFF for the RSDP when there is no EFI). */
#define LINUX_BIOS_START 0xe0000ULL
#define LINUX_HIGH_RAM 0x100000ULL
#define LINUX_APIC_GPA APIC_DEFAULT_BASE /* the local APIC page, reserved */
/* RAM ends below the 32-bit device hole (the APIC page stays unmapped). */
#define LINUX_MAX_MEM 0xc0000000ULL
#define LINUX_BOOT_CS 0x10 /* __BOOT_CS */
#define LINUX_BOOT_DS 0x18 /* __BOOT_DS */

struct linux_layout {
	gpa_t entry; /* startup_64: load address + 0x200 */
	gpa_t kernel; /* load address of the protected-mode kernel */
	/* The end of the kernel's bytes and of init_size from its runtime
	 * start (boot.rst), whichever is higher. */
	u64 kernel_end;
	gpa_t initrd; /* 0 when there is none */
	u64 initrd_size;
	u32 e820_entries;
	u32 cmdline_max; /* the longest command line the kernel takes */
};

/* Check img (a bzImage) and lay it out in guest memory mem[0, mem_size):
 * the protected-mode kernel at its preferred (or aligned) address, the
 * initrd page-aligned at the top of what the kernel may address, the
 * command line, the zero page with the image's setup header, loader type
 * 0xFF and an e820 map of guest memory, and a flat GDT with __BOOT_CS and
 * __BOOT_DS. Writes nothing on error: -EINVAL (bad image, command line too
 * long) or -E2BIG (does not fit), after one pr_err line. */
int linux_boot_build(void *mem, u64 mem_size, const void *img, size_t size,
		     const char *cmdline, const void *initrd,
		     size_t initrd_size, struct linux_layout *out);

/* One more reserved range (a device's MMIO window) in the e820 map of the
 * zero page linux_boot_build() wrote: 0, or -E2BIG when the map is full. */
int linux_e820_reserve(void *mem, u64 addr, u64 size);

/* Append " tsc_early_khz=<tsc_khz>" to the command line linux_boot_build()
 * wrote, unless it names tsc_early_khz= already (the user's value wins):
 * without a PIT Linux cannot calibrate the TSC early, and minhv has
 * measured it. 1 when appended, 0 when already there or tsc_khz is 0,
 * -E2BIG when the command line has no room left (it stays as it was). */
int linux_cmdline_tsc(void *mem, const struct linux_layout *l, u64 tsc_khz);

/* A vCPU's entry state for the 64-bit protocol: CS = __BOOT_CS, DS, ES,
 * SS = __BOOT_DS in the GDT at LINUX_GDT_GPA, RSI = the zero page,
 * interrupts off (the VMCB is already built for 64-bit mode). */
void linux_vcpu_setup(struct vcpu *v);

#endif
