// SPDX-License-Identifier: GPL-2.0-only
/* boot/efi_file.c - reading files (the config file, a guest image, an
 * initrd, a disk image) from the EFI system partition minhv was loaded
 * from. */
#include "boot/efi.h"

/* Open path on minhv's own volume and read its size. NULL when it does
 * not exist; *err set on other failures. */
static EFI_FILE_HANDLE open_file(EFI_HANDLE image, const CHAR16 *path,
				 UINTN *size, EFI_STATUS *err)
{
	EFI_LOADED_IMAGE *li;
	EFI_FILE_HANDLE root, fh;
	EFI_FILE_INFO *info;
	EFI_STATUS st;

	*err = EFI_SUCCESS;
	st = uefi_call_wrapper(BS->HandleProtocol, 3, image,
			       &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(st)) {
		*err = st;
		return NULL;
	}
	root = LibOpenRoot(li->DeviceHandle);
	if (!root) {
		*err = EFI_NOT_FOUND;
		return NULL;
	}
	st = uefi_call_wrapper(root->Open, 5, root, &fh, (CHAR16 *)path,
			       EFI_FILE_MODE_READ, 0);
	uefi_call_wrapper(root->Close, 1, root);
	if (st == EFI_NOT_FOUND)
		return NULL;
	if (EFI_ERROR(st)) {
		*err = st;
		return NULL;
	}
	info = LibFileInfo(fh);
	if (!info) {
		uefi_call_wrapper(fh->Close, 1, fh);
		*err = EFI_DEVICE_ERROR;
		return NULL;
	}
	*size = info->FileSize;
	FreePool(info);
	return fh;
}

/* Read the whole file into buf (size bytes) and close it. */
static EFI_STATUS read_close(EFI_FILE_HANDLE fh, UINTN *size, void *buf)
{
	UINTN want = *size;
	EFI_STATUS st = uefi_call_wrapper(fh->Read, 3, fh, size, buf);

	uefi_call_wrapper(fh->Close, 1, fh);
	if (!EFI_ERROR(st) && *size != want)
		st = EFI_END_OF_FILE; /* shorter than its own size */
	return st;
}

void *efi_read_file(EFI_HANDLE image, const CHAR16 *path, UINTN *size,
		    EFI_STATUS *err)
{
	EFI_FILE_HANDLE fh = open_file(image, path, size, err);
	void *buf;

	if (!fh)
		return NULL;
	buf = AllocatePool(*size + 1);
	if (!buf) {
		uefi_call_wrapper(fh->Close, 1, fh);
		*err = EFI_OUT_OF_RESOURCES;
		return NULL;
	}
	*err = read_close(fh, size, buf);
	if (EFI_ERROR(*err)) {
		FreePool(buf);
		return NULL;
	}
	((char *)buf)[*size] = 0;
	return buf;
}

void *efi_read_file_pages(EFI_HANDLE image, const CHAR16 *path, UINT64 max,
			  UINTN *size, EFI_STATUS *err)
{
	EFI_FILE_HANDLE fh = open_file(image, path, size, err);
	EFI_PHYSICAL_ADDRESS a;
	UINTN pages;

	if (!fh)
		return NULL;
	if (*size > max) {
		uefi_call_wrapper(fh->Close, 1, fh);
		*err = EFI_BAD_BUFFER_SIZE;
		return NULL;
	}
	pages = EFI_SIZE_TO_PAGES(*size);
	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages,
					EfiLoaderData, pages ? pages : 1,
					&a))) {
		uefi_call_wrapper(fh->Close, 1, fh);
		*err = EFI_OUT_OF_RESOURCES;
		return NULL;
	}
	*err = read_close(fh, size, (void *)(UINTN)a);
	if (EFI_ERROR(*err)) {
		uefi_call_wrapper(BS->FreePages, 2, a, pages ? pages : 1);
		return NULL;
	}
	return (void *)(UINTN)a;
}
