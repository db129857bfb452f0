// SPDX-License-Identifier: GPL-2.0-only
/* boot/efi_file.c - reading files (the config file, a guest image, an
 * initrd, a disk image) from the EFI system partition minhv was loaded
 * from. */
#include "boot/efi.h"

void *efi_read_file(EFI_HANDLE image, const CHAR16 *path, UINT64 max,
		    UINTN *size, EFI_STATUS *err)
{
	EFI_LOADED_IMAGE *li;
	EFI_FILE_HANDLE root, fh;
	EFI_FILE_INFO *info;
	void *buf;
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
	/* Too large: refused before anything is allocated. */
	buf = *size > max ? NULL : AllocatePool(*size + 1);
	if (!buf) {
		uefi_call_wrapper(fh->Close, 1, fh);
		*err = *size > max ? EFI_BAD_BUFFER_SIZE : EFI_OUT_OF_RESOURCES;
		return NULL;
	}
	st = uefi_call_wrapper(fh->Read, 3, fh, size, buf);
	uefi_call_wrapper(fh->Close, 1, fh);
	if (EFI_ERROR(st)) {
		FreePool(buf);
		*err = st;
		return NULL;
	}
	((char *)buf)[*size] = 0;
	return buf;
}
