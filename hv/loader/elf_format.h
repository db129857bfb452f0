/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/loader/elf_format.h - the ELF32 and ELF64 file headers and program
 * headers as packed structs with their gABI offsets checked at compile
 * time (no <elf.h>). */
#ifndef MINHV_HV_LOADER_ELF_FORMAT_H
#define MINHV_HV_LOADER_ELF_FORMAT_H

#include <stddef.h>

#include "arch/types.h"

#define EI_NIDENT 16
#define ELFMAG0 0x7f /* e_ident[0..3] = "\x7fELF" */
#define EI_CLASS 4
#define ELFCLASS32 1
#define ELFCLASS64 2
#define EI_DATA 5
#define ELFDATA2LSB 1
#define EI_VERSION 6
#define EV_CURRENT 1
#define EI_OSABI 7
#define ELFOSABI_SYSV 0
#define ELFOSABI_GNU 3
#define ET_EXEC 2
#define EM_386 3
#define EM_X86_64 62
#define PT_LOAD 1
#define PF_X 1
#define PF_W 2
#define PF_R 4
#define PN_XNUM 0xffff /* real e_phnum is in section 0: not supported */

struct elf64_ehdr {
	u8 e_ident[EI_NIDENT]; /* 0x00 */
	u16 e_type; /* 0x10 */
	u16 e_machine; /* 0x12 */
	u32 e_version; /* 0x14 */
	u64 e_entry; /* 0x18 */
	u64 e_phoff; /* 0x20 */
	u64 e_shoff; /* 0x28 */
	u32 e_flags; /* 0x30 */
	u16 e_ehsize; /* 0x34 */
	u16 e_phentsize; /* 0x36 */
	u16 e_phnum; /* 0x38 */
	u16 e_shentsize; /* 0x3a */
	u16 e_shnum; /* 0x3c */
	u16 e_shstrndx; /* 0x3e */
} __attribute__((packed));

struct elf64_phdr {
	u32 p_type; /* 0x00 */
	u32 p_flags; /* 0x04 */
	u64 p_offset; /* 0x08 */
	u64 p_vaddr; /* 0x10 */
	u64 p_paddr; /* 0x18 */
	u64 p_filesz; /* 0x20 */
	u64 p_memsz; /* 0x28 */
	u64 p_align; /* 0x30 */
} __attribute__((packed));

#define ELF64_SHDR_SIZE 64 /* sections are not loaded, only bounds-checked */

struct elf32_ehdr {
	u8 e_ident[EI_NIDENT]; /* 0x00 */
	u16 e_type; /* 0x10 */
	u16 e_machine; /* 0x12 */
	u32 e_version; /* 0x14 */
	u32 e_entry; /* 0x18 */
	u32 e_phoff; /* 0x1c */
	u32 e_shoff; /* 0x20 */
	u32 e_flags; /* 0x24 */
	u16 e_ehsize; /* 0x28 */
	u16 e_phentsize; /* 0x2a */
	u16 e_phnum; /* 0x2c */
	u16 e_shentsize; /* 0x2e */
	u16 e_shnum; /* 0x30 */
	u16 e_shstrndx; /* 0x32 */
} __attribute__((packed));

/* Not the ELF64 order: p_flags comes after p_memsz. */
struct elf32_phdr {
	u32 p_type; /* 0x00 */
	u32 p_offset; /* 0x04 */
	u32 p_vaddr; /* 0x08 */
	u32 p_paddr; /* 0x0c */
	u32 p_filesz; /* 0x10 */
	u32 p_memsz; /* 0x14 */
	u32 p_flags; /* 0x18 */
	u32 p_align; /* 0x1c */
} __attribute__((packed));

#define ELF32_SHDR_SIZE 40

_Static_assert(offsetof(struct elf64_ehdr, e_type) == 0x10, "e_type");
_Static_assert(offsetof(struct elf64_ehdr, e_machine) == 0x12, "e_machine");
_Static_assert(offsetof(struct elf64_ehdr, e_version) == 0x14, "e_version");
_Static_assert(offsetof(struct elf64_ehdr, e_entry) == 0x18, "e_entry");
_Static_assert(offsetof(struct elf64_ehdr, e_phoff) == 0x20, "e_phoff");
_Static_assert(offsetof(struct elf64_ehdr, e_shoff) == 0x28, "e_shoff");
_Static_assert(offsetof(struct elf64_ehdr, e_flags) == 0x30, "e_flags");
_Static_assert(offsetof(struct elf64_ehdr, e_ehsize) == 0x34, "e_ehsize");
_Static_assert(offsetof(struct elf64_ehdr, e_phentsize) == 0x36, "phentsize");
_Static_assert(offsetof(struct elf64_ehdr, e_phnum) == 0x38, "e_phnum");
_Static_assert(offsetof(struct elf64_ehdr, e_shentsize) == 0x3a, "shentsize");
_Static_assert(offsetof(struct elf64_ehdr, e_shnum) == 0x3c, "e_shnum");
_Static_assert(offsetof(struct elf64_ehdr, e_shstrndx) == 0x3e, "shstrndx");
_Static_assert(sizeof(struct elf64_ehdr) == 64, "Elf64_Ehdr size");
_Static_assert(offsetof(struct elf64_phdr, p_flags) == 0x04, "p_flags");
_Static_assert(offsetof(struct elf64_phdr, p_offset) == 0x08, "p_offset");
_Static_assert(offsetof(struct elf64_phdr, p_vaddr) == 0x10, "p_vaddr");
_Static_assert(offsetof(struct elf64_phdr, p_paddr) == 0x18, "p_paddr");
_Static_assert(offsetof(struct elf64_phdr, p_filesz) == 0x20, "p_filesz");
_Static_assert(offsetof(struct elf64_phdr, p_memsz) == 0x28, "p_memsz");
_Static_assert(offsetof(struct elf64_phdr, p_align) == 0x30, "p_align");
_Static_assert(sizeof(struct elf64_phdr) == 56, "Elf64_Phdr size");
_Static_assert(offsetof(struct elf32_ehdr, e_type) == 0x10, "e_type");
_Static_assert(offsetof(struct elf32_ehdr, e_machine) == 0x12, "e_machine");
_Static_assert(offsetof(struct elf32_ehdr, e_version) == 0x14, "e_version");
_Static_assert(offsetof(struct elf32_ehdr, e_entry) == 0x18, "e_entry");
_Static_assert(offsetof(struct elf32_ehdr, e_phoff) == 0x1c, "e_phoff");
_Static_assert(offsetof(struct elf32_ehdr, e_shoff) == 0x20, "e_shoff");
_Static_assert(offsetof(struct elf32_ehdr, e_flags) == 0x24, "e_flags");
_Static_assert(offsetof(struct elf32_ehdr, e_ehsize) == 0x28, "e_ehsize");
_Static_assert(offsetof(struct elf32_ehdr, e_phentsize) == 0x2a, "phentsize");
_Static_assert(offsetof(struct elf32_ehdr, e_phnum) == 0x2c, "e_phnum");
_Static_assert(offsetof(struct elf32_ehdr, e_shentsize) == 0x2e, "shentsize");
_Static_assert(offsetof(struct elf32_ehdr, e_shnum) == 0x30, "e_shnum");
_Static_assert(offsetof(struct elf32_ehdr, e_shstrndx) == 0x32, "shstrndx");
_Static_assert(sizeof(struct elf32_ehdr) == 52, "Elf32_Ehdr size");
_Static_assert(offsetof(struct elf32_phdr, p_offset) == 0x04, "p_offset");
_Static_assert(offsetof(struct elf32_phdr, p_vaddr) == 0x08, "p_vaddr");
_Static_assert(offsetof(struct elf32_phdr, p_paddr) == 0x0c, "p_paddr");
_Static_assert(offsetof(struct elf32_phdr, p_filesz) == 0x10, "p_filesz");
_Static_assert(offsetof(struct elf32_phdr, p_memsz) == 0x14, "p_memsz");
_Static_assert(offsetof(struct elf32_phdr, p_flags) == 0x18, "p_flags");
_Static_assert(offsetof(struct elf32_phdr, p_align) == 0x1c, "p_align");
_Static_assert(sizeof(struct elf32_phdr) == 32, "Elf32_Phdr size");

#endif
