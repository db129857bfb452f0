// SPDX-License-Identifier: GPL-2.0-only
/* boot/efi_services.c - the system table, pool allocations and the
 * protocol GUIDs boot/ uses, called directly: gnu-efi's libefi (30 KiB of
 * print, device-path and handle helpers) is not linked (docs/PERFORMANCE.md). */
#include "boot/efi.h"
#include "lib/string.h"

EFI_SYSTEM_TABLE *efi_st;
EFI_BOOT_SERVICES *efi_bs;

/* The values come from gnu-efi's headers, which copy the UEFI spec;
 * libefi's guid.o, which would define gnu-efi's named copies, is not
 * linked. UEFI 2.10 9.1 (EFI_LOADED_IMAGE_PROTOCOL), 13.4
 * (EFI_SIMPLE_FILE_SYSTEM_PROTOCOL), 13.5.16 (EFI_FILE_INFO_ID), 4.6.1
 * (the ACPI 1.0 and 2.0+ configuration tables). */
EFI_GUID efi_loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
EFI_GUID efi_simple_fs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
EFI_GUID efi_file_info_guid = EFI_FILE_INFO_ID;
EFI_GUID efi_acpi20_guid = ACPI_20_TABLE_GUID;
EFI_GUID efi_acpi10_guid = ACPI_TABLE_GUID;

void efi_init(EFI_SYSTEM_TABLE *systab)
{
	efi_st = systab;
	efi_bs = systab->BootServices;
}

/* EfiLoaderData, like the pages (efi_alloc_pages): what is allocated here
 * (ACPI copies, guest images, the options) is used after ExitBootServices,
 * so it must not be boot-services memory (UEFI 2.10 7.2). */
void *efi_alloc_pool(UINTN bytes)
{
	void *p;

	if (EFI_ERROR(uefi_call_wrapper(efi_bs->AllocatePool, 3, EfiLoaderData,
					bytes, &p)))
		return NULL;
	return p;
}

void efi_free_pool(void *p)
{
	uefi_call_wrapper(efi_bs->FreePool, 1, p);
}

/* UEFI 2.10 4.6: the configuration table is an array of {GUID, pointer}. */
void *efi_config_table(const EFI_GUID *guid)
{
	for (UINTN i = 0; i < efi_st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &efi_st->ConfigurationTable[i];

		if (!memcmp(&t->VendorGuid, guid, sizeof(*guid)))
			return t->VendorTable;
	}
	return NULL;
}
