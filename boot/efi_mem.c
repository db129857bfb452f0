// SPDX-License-Identifier: GPL-2.0-only
/* boot/efi_mem.c - allocations before the hand-off, the memory map, and
 * ExitBootServices (UEFI 2.10 7.4: retry with a fresh map key when the
 * map changed under us). */
#include "boot/efi.h"
#include "hv/log.h"

UINT64 efi_alloc_pages(UINTN pages, UINT64 max_addr)
{
	EFI_PHYSICAL_ADDRESS a = max_addr;

	if (EFI_ERROR(uefi_call_wrapper(efi_bs->AllocatePages, 4,
					AllocateMaxAddress, EfiLoaderData,
					pages, &a)))
		return 0;
	return a;
}

static void scan_map(EFI_MEMORY_DESCRIPTOR *map, UINTN size, UINTN dsz,
		     struct boot_info *bi)
{
	bi->phys_top = 4ULL << 30; /* at least the 32-bit MMIO window */
	bi->ram_bytes = 0;
	bi->ram_top = 0;
	bi->mmap_entries = (u32)(size / dsz);
	for (UINTN off = 0; off < size; off += dsz) {
		EFI_MEMORY_DESCRIPTOR *d = (void *)((UINT8 *)map + off);
		UINT64 end = d->PhysicalStart + d->NumberOfPages * 4096;

		if (end > bi->phys_top)
			bi->phys_top = end;
		switch (d->Type) {
		case EfiConventionalMemory:
		case EfiBootServicesCode:
		case EfiBootServicesData:
		case EfiLoaderCode:
		case EfiLoaderData:
			bi->ram_bytes += d->NumberOfPages * 4096;
			if (end > bi->ram_top)
				bi->ram_top = end;
			break;
		default:
			break;
		}
	}
}

EFI_STATUS efi_exit_boot(EFI_HANDLE image, struct boot_info *bi)
{
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	UINTN size = 0, cap = 0, key, dsz;
	UINT32 dver;
	EFI_STATUS st;

	for (u32 tries = 1; tries <= 8; tries++) {
		size = cap;
		st = uefi_call_wrapper(efi_bs->GetMemoryMap, 5, &size, map,
				       &key, &dsz, &dver);
		if (st == EFI_BUFFER_TOO_SMALL) {
			/* Room for the entries the allocation itself adds. */
			if (map)
				efi_free_pool(map);
			cap = size + 16 * sizeof(EFI_MEMORY_DESCRIPTOR);
			map = efi_alloc_pool(cap);
			if (!map)
				return EFI_OUT_OF_RESOURCES;
			tries--;
			continue;
		}
		if (EFI_ERROR(st))
			return st;
		scan_map(map, size, dsz, bi);
		bi->ebs_tries = tries;
		/* No firmware call (not even a print) between here and EBS. */
		st = uefi_call_wrapper(efi_bs->ExitBootServices, 2, image, key);
		if (st == EFI_SUCCESS)
			return st;
		if (st != EFI_INVALID_PARAMETER)
			return st;
	}
	return EFI_ABORTED;
}
