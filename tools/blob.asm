; SPDX-License-Identifier: GPL-2.0-only
; tools/blob.asm - embeds a file (the built-in guest ELF) in minhv.efi.
; Assembled with -DBLOB="path" -DNAME=symbol; exports NAME and NAME_end.
section .rodata
align 16
global NAME
global NAME %+ _end
NAME:
	incbin BLOB
NAME %+ _end:

section .note.GNU-stack noalloc noexec nowrite progbits
