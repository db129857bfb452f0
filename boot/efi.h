/* SPDX-License-Identifier: GPL-2.0-only */
/* boot/efi.h - the boot stage's internal helpers (gnu-efi lives only here). */
#ifndef MINHV_BOOT_EFI_H
#define MINHV_BOOT_EFI_H

/* gnu-efi's headers and crt0 only: libefi is not linked, so nothing of
 * efilib.h (ST, BS, AllocatePool, Lib*) may be used here. */
#include <efi.h>

#include "hv/run/boot_info.h"

/* Set by efi_init() from efi_main()'s system table; valid until
 * ExitBootServices. */
extern EFI_SYSTEM_TABLE *efi_st;
extern EFI_BOOT_SERVICES *efi_bs;
extern EFI_GUID efi_loaded_image_guid, efi_simple_fs_guid, efi_file_info_guid,
	efi_acpi20_guid, efi_acpi10_guid;

void efi_init(EFI_SYSTEM_TABLE *systab);
/* The configuration table entry with this GUID; NULL when there is none. */
void *efi_config_table(const EFI_GUID *guid);

/* Read a whole file from the volume minhv was loaded from (EfiLoaderData,
 * NUL-terminated). Returns NULL when it does not exist; *err set on other
 * failures: EFI_BAD_BUFFER_SIZE (and *size) when it is longer than max,
 * before anything is allocated. */
void *efi_read_file(EFI_HANDLE image, const CHAR16 *path, UINT64 max,
		    UINTN *size, EFI_STATUS *err);
/* The load options as ASCII, image path (argv[0]) stripped. NULL and a
 * warning when they are not text. */
char *efi_load_options(EFI_HANDLE image, UINTN *len);
/* Allocate pages at or below max_addr; returns 0 on failure. */
UINT64 efi_alloc_pages(UINTN pages, UINT64 max_addr);
/* Pool memory (EfiLoaderData, kept after ExitBootServices); NULL on
 * failure. */
void *efi_alloc_pool(UINTN bytes);
void efi_free_pool(void *p);
/* Read the memory map, fill bi->phys_top/ram_bytes/mmap_entries, call
 * ExitBootServices (retrying when the map key changed). */
EFI_STATUS efi_exit_boot(EFI_HANDLE image, struct boot_info *bi);

#endif
