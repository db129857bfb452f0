// SPDX-License-Identifier: GPL-2.0-only
/* boot/efi_options.c - the UEFI load options (UCS-2, like a kernel command
 * line) as ASCII. A shell passes the image path first; that is dropped. */
#include "boot/efi.h"
#include "hv/log.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char *efi_load_options(EFI_HANDLE image, UINTN *len)
{
	EFI_LOADED_IMAGE *li;
	CHAR16 *w;
	UINTN n, i, start = 0, end;
	char *s;

	*len = 0;
	if (EFI_ERROR(uefi_call_wrapper(efi_bs->HandleProtocol, 3, image,
					&efi_loaded_image_guid, (void **)&li)))
		return NULL;
	if (!li->LoadOptions || li->LoadOptionsSize < 2)
		return NULL;
	/* Boot managers may pass binary OptionalData; only text is options. */
	if (li->LoadOptionsSize % 2) {
		pr_warn("boot: load options are not UCS-2 text; ignored\n");
		return NULL;
	}
	w = li->LoadOptions;
	n = li->LoadOptionsSize / 2;
	s = efi_alloc_pool(n + 1);
	if (!s)
		return NULL;
	for (i = 0; i < n && w[i]; i++) {
		if (w[i] > 0x7e || (w[i] < 0x20 && !is_space((char)w[i]))) {
			pr_warn("boot: load options are not ASCII text; ignored\n");
			efi_free_pool(s);
			return NULL;
		}
		s[i] = (char)w[i];
	}
	s[i] = 0;
	end = i;
	/* Drop a leading "...\minhv.efi" (the UEFI shell's argv[0]). */
	while (start < end && is_space(s[start]))
		start++;
	i = start;
	while (i < end && !is_space(s[i]))
		i++;
	if (i - start >= 4) {
		const char *t = s + i - 4;

		if (t[0] == '.' && (t[1] | 0x20) == 'e' &&
		    (t[2] | 0x20) == 'f' && (t[3] | 0x20) == 'i')
			start = i;
	}
	*len = end - start;
	return s + start;
}
