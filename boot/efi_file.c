// SPDX-License-Identifier: GPL-2.0-only
/* boot/efi_file.c - reading files (the config file, a guest image, an
 * initrd, a disk image) from the EFI system partition minhv was loaded
 * from. */
#include "boot/efi.h"

/* The root directory of the volume this image was loaded from: its loaded
 * image protocol names the device (UEFI 2.10 9.1), whose simple file system
 * protocol opens the volume (13.4). */
static EFI_STATUS open_root(EFI_HANDLE image, EFI_FILE_HANDLE *root)
{
	EFI_LOADED_IMAGE *li;
	EFI_FILE_IO_INTERFACE *fs;
	EFI_STATUS st;

	st = uefi_call_wrapper(efi_bs->HandleProtocol, 3, image,
			       &efi_loaded_image_guid, (void **)&li);
	if (EFI_ERROR(st))
		return st;
	st = uefi_call_wrapper(efi_bs->HandleProtocol, 3, li->DeviceHandle,
			       &efi_simple_fs_guid, (void **)&fs);
	if (EFI_ERROR(st))
		return st;
	return uefi_call_wrapper(fs->OpenVolume, 2, fs, root);
}

/* The file's size from its EFI_FILE_INFO (UEFI 2.10 13.5.12: GetInfo says
 * EFI_BUFFER_TOO_SMALL and the size it needs when the name does not fit). */
static EFI_STATUS file_size(EFI_FILE_HANDLE fh, UINTN *size)
{
	UINTN len = SIZE_OF_EFI_FILE_INFO + 128 * sizeof(CHAR16);
	EFI_FILE_INFO *info;
	EFI_STATUS st;

	for (int tries = 0; tries < 2; tries++) {
		info = efi_alloc_pool(len);
		if (!info)
			return EFI_OUT_OF_RESOURCES;
		st = uefi_call_wrapper(fh->GetInfo, 4, fh, &efi_file_info_guid,
				       &len, info);
		if (!EFI_ERROR(st))
			*size = info->FileSize;
		efi_free_pool(info);
		if (st != EFI_BUFFER_TOO_SMALL)
			return st;
	}
	return st;
}

void *efi_read_file(EFI_HANDLE image, const CHAR16 *path, UINT64 max,
		    UINTN *size, EFI_STATUS *err)
{
	EFI_FILE_HANDLE root, fh;
	void *buf;
	EFI_STATUS st;

	*err = EFI_SUCCESS;
	st = open_root(image, &root);
	if (EFI_ERROR(st)) {
		*err = st;
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
	st = file_size(fh, size);
	/* Too large: refused before anything is allocated. */
	buf = EFI_ERROR(st) || *size > max ? NULL : efi_alloc_pool(*size + 1);
	if (!buf) {
		uefi_call_wrapper(fh->Close, 1, fh);
		*err = EFI_ERROR(st) ? st :
		       *size > max   ? EFI_BAD_BUFFER_SIZE :
				       EFI_OUT_OF_RESOURCES;
		return NULL;
	}
	st = uefi_call_wrapper(fh->Read, 3, fh, size, buf);
	uefi_call_wrapper(fh->Close, 1, fh);
	if (EFI_ERROR(st)) {
		efi_free_pool(buf);
		*err = st;
		return NULL;
	}
	((char *)buf)[*size] = 0;
	return buf;
}
