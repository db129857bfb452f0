/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/run/boot_info.h - what boot/ hands the hypervisor at ExitBootServices:
 * everything it needs, so hv/ never touches the firmware. */
#ifndef MINHV_HV_RUN_BOOT_INFO_H
#define MINHV_HV_RUN_BOOT_INFO_H

#include "arch/types.h"
#include "hv/acpi/acpi.h"

struct boot_info {
	struct acpi_info acpi;
	hpa_t trampoline; /* one page below 1 MiB for the AP trampoline */
	hpa_t pool_base; /* the page pool (below 4 GiB) */
	u64 pool_pages;
	u64 phys_top; /* highest address in the UEFI memory map */
	u64 ram_bytes; /* conventional + boot/loader memory seen */
	u64 ram_top; /* end of the highest of those RAM descriptors */
	u32 mmap_entries;
	u32 ebs_tries; /* ExitBootServices attempts (map key changes) */
	const void *guest_image; /* ELF64 guest to run */
	u64 guest_size;
	char guest_name[16];
	const void *initrd; /* initrd= file (multiboot module 0), or NULL */
	u64 initrd_size;
	void *disk; /* disk= image (whole 512-byte sectors), or NULL */
	u64 disk_size;
	bool under_qemu;
	u32 fw_cfg_cpus; /* QEMU's CPU count (fw_cfg), 0 when not QEMU */
	u64 tsc_efi_main; /* TSC at efi_main entry */
	u64 tsc_exit_boot; /* TSC right after ExitBootServices */
	u64 bsp_stack_top; /* the boot CPU's hypervisor stack */
};

/* Entered on the boot CPU, on a hypervisor stack, interrupts off, after
 * ExitBootServices. Never returns: the run ends in hv_stop(). */
_Noreturn void hv_main(struct boot_info *bi);

#endif
